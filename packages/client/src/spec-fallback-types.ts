/*
 * Shapes from the interface specification for routes that are not yet in the generated
 * document (their server routes are still being built). types.ts uses one only while its
 * route is missing from generated/openapi.ts; this file goes away once all routes exist.
 */

export interface SpecAction {
  id: string;
  type: string;
  payload: { [key: string]: unknown };
}
export interface SpecUsage {
  tokensUsed: number;
  modelUsed: string;
  latencyMs: number;
}
export interface SpecMessageRequest {
  content: string;
  sessionId?: string;
  context?: { [key: string]: unknown };
  mcpVersion?: string;
}
export interface SpecMessageReply {
  sessionId: string;
  message: { id: string; role: string; content: string; summary: string; actions: SpecAction[] };
  usage: SpecUsage;
}
export interface SpecActionResult {
  actionId: string;
  type: string;
  success: boolean;
  error?: string;
  summary?: string;
}
export interface SpecContinueRequest {
  sessionId: string;
  results: SpecActionResult[];
  context: { [key: string]: unknown };
  hop?: number;
}
export interface SpecContinueReply {
  sessionId: string;
  message: { id: string; role: string; content: string; actions: SpecAction[] };
  usage: SpecUsage;
  isDone: boolean;
  hop: number;
}
export interface SpecPendingActions {
  actions: Array<SpecAction & { messageId: string }>;
}
export interface SpecExecuteReply {
  actionId: string;
  type: string;
  payload: { [key: string]: unknown };
  status: 'executing';
}
export interface SpecCompleteRequest {
  success: boolean;
  error?: string;
}
export interface SpecCompleteReply {
  actionId: string;
  status: 'completed' | 'failed';
}
export interface SpecIdentifyRequest {
  userId: string;
  name?: string;
  identifiers?: { [key: string]: string };
}
export interface SpecPopularPrompts {
  devDefined: string[];
  screenPopular: string[];
  globalPopular: string[];
  computedAt: string;
}
export interface SpecPopularPromptsQuery {
  screen?: string;
  limit?: number;
}
export interface SpecPersonalization {
  assistantName: string | null;
  assistantAvatar: string | null;
  emptyStateIcon: string | null;
  welcomeMessage: string | null;
  chatTitle: string | null;
  poweredByVisible: boolean;
  theme: { colors: { [token: string]: string }; mode: string };
  defaultLocale: string | null;
  triggerButtonColor: string | null;
  triggerButtonImageUrl: string | null;
}
export type EscalationStatus = 'pending' | 'active' | 'resolved';
export interface SpecEscalateRequest {
  sessionId?: string;
  reason: 'user_requested' | 'agent_gave_up';
  note?: string;
}
export interface SpecEscalation {
  escalationId: string;
  sessionId: string;
  status: EscalationStatus;
}
export interface SpecEscalationPoll extends SpecEscalation {
  messages: Array<{ id: string; role: string; content: string; createdAt: string }>;
}
export interface SpecOperatorEscalation {
  escalationId: string;
  status: EscalationStatus;
  claimedByName: string | null;
  [key: string]: unknown;
}
export interface SpecOperatorQueue {
  escalations: SpecOperatorEscalation[];
}
