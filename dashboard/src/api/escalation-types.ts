import type { ResponseData } from '../../../packages/client/src/route-types';

/*
 * The operator routes' records, read from the OpenAPI types generated from the server's
 * route schemas (packages/client, `npm run generate:client`). Type imports only.
 */

export type OperatorQueue = ResponseData<'/api/v1/escalations', 'get'>;
export type QueueItem = OperatorQueue['escalations'][number];
/** GET /escalations/:id: the escalation, the identified user, the AI conversation, the operator transcript. */
export type EscalationDetail = ResponseData<'/api/v1/escalations/{id}', 'get'>;
export type IdentifiedUser = NonNullable<EscalationDetail['user']>;
export type EscalationStatus = QueueItem['status'];

/** The workspace feed's event (GET /escalations/stream); no JSON schema describes SSE frames. */
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

/** The end user as operators see them: the app's name or id for them, else part of the session id. */
export function displayNameOf(sessionId: string, user: IdentifiedUser | null | undefined): string {
  if (user?.name) return user.name;
  if (user?.userId) return user.userId;
  return `Visitor ${sessionId.slice(-6)}`;
}
