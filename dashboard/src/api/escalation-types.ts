/** The operator-side records, as the escalation routes return them; extra fields are read defensively. */
export type EscalationStatus = 'pending' | 'active' | 'resolved';

export interface QueueItem {
  escalationId: string;
  sessionId: string;
  projectId?: string;
  projectName?: string | null;
  status: EscalationStatus;
  reason?: string;
  note?: string | null;
  claimedByName?: string | null;
  createdAt?: string;
  lastActivityAt?: string;
  user?: IdentifiedUser | null;
}

export interface IdentifiedUser {
  userId?: string;
  name?: string | null;
  identifiers?: Record<string, string> | null;
}

export interface TranscriptMessage {
  id: string;
  role: string;
  content: string;
  operatorName?: string | null;
  createdAt?: string;
}

export interface ActionEnvelope {
  id?: string;
  type: string;
  payload?: unknown;
  status?: string;
}

export interface ConversationMessage {
  id?: string;
  role: string;
  content: string;
  actions?: ActionEnvelope[];
  createdAt?: string;
}

export interface EscalationDetail extends QueueItem {
  messages?: TranscriptMessage[];
  transcript?: TranscriptMessage[];
  conversation?: ConversationMessage[] | { messages?: ConversationMessage[] };
  endUser?: IdentifiedUser | null;
  identifiedUser?: IdentifiedUser | null;
}

/** The workspace feed's event (see GET /escalations/stream). */
export interface FeedEvent {
  id?: string;
  type: string;
  escalationId?: string;
  projectId?: string;
  status?: EscalationStatus;
  operatorName?: string;
  createdAt?: string;
  message?: { id: string; role: string; content: string; createdAt: string };
}

export function transcriptOf(detail: EscalationDetail): TranscriptMessage[] {
  return detail.messages ?? detail.transcript ?? [];
}

export function conversationOf(detail: EscalationDetail): ConversationMessage[] {
  const conversation = detail.conversation;
  if (Array.isArray(conversation)) return conversation;
  return conversation?.messages ?? [];
}

export function userOf(item: EscalationDetail | QueueItem): IdentifiedUser | null {
  const detail = item as EscalationDetail;
  return item.user ?? detail.endUser ?? detail.identifiedUser ?? null;
}

export function displayNameOf(item: QueueItem, knownUser?: IdentifiedUser | null): string {
  const user = knownUser ?? userOf(item);
  if (user?.name) return user.name;
  if (user?.userId) return user.userId;
  return `Visitor ${item.sessionId.slice(-6)}`;
}

/** The queue list, whether the route wraps it ({ escalations }) or not. */
export function queueOf(data: unknown): QueueItem[] {
  if (Array.isArray(data)) return data as QueueItem[];
  const wrapped = data as { escalations?: QueueItem[]; items?: QueueItem[] } | null;
  return wrapped?.escalations ?? wrapped?.items ?? [];
}

/** GET /escalations/:id answers { escalation, user, conversation, messages }; flattened here. */
export function detailOf(data: unknown): EscalationDetail {
  const wrapped = data as { escalation?: QueueItem; user?: IdentifiedUser | null; conversation?: ConversationMessage[]; messages?: TranscriptMessage[] };
  if (wrapped.escalation) return { ...wrapped.escalation, user: wrapped.user ?? null, conversation: wrapped.conversation ?? [], messages: wrapped.messages ?? [] };
  return data as EscalationDetail;
}
