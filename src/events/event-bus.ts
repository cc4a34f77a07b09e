/**
 * How parts of Parley tell each other that something happened (a reply was
 * posted, personalization was saved, a key was revoked). In-process on one
 * instance; the Redis implementation carries the same messages between
 * instances. Messages must be plain JSON: they cross process boundaries.
 */
export type Unsubscribe = () => Promise<void>;

export interface EventBus {
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe>;
  close(): Promise<void>;
  /**
   * Registers `handler` to run after the bus lost its connection and got it
   * back (Redis restarted, network blip), once every channel is subscribed
   * again. Messages published while it was away are lost to this instance, so
   * a subscriber whose state matters (an end user's escalation stream, the
   * operator feed) re-reads what it may have missed from the database here and
   * drops what it already sent (match on message id / sequence): no loss, no
   * duplicates. Optional: the in-process bus never disconnects and never calls it.
   * Returns a function that removes the handler.
   */
  onReconnect?(handler: () => void): () => void;
}

/** Channel names, in one place so publishers and subscribers cannot drift apart. */
export const channels = {
  personalizationSaved: 'personalization-saved',
  apiKeyRevoked: 'api-key-revoked',
  projectUpdated: 'project-updated',
  /** Per escalation: status changes and messages for end-user streams. */
  escalation: (escalationId: string) => `escalation:${escalationId}`,
  /** Per workspace: the operator feed. */
  workspaceFeed: (workspaceId: string) => `workspace-feed:${workspaceId}`,
} as const;
