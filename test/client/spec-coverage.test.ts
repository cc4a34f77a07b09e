import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type * as T from '../../packages/client/src/types.js';
import { clientTypesPath } from '../../scripts/client-types.js';

/** Every route of the interface specification (section 4), as the OpenAPI document names it. */
const specRoutes = [
  'get /api/v1/health',
  'post /api/v1/agent/session',
  'delete /api/v1/agent/session/{sessionId}',
  'get /api/v1/agent/session/{sessionId}/pending-actions',
  'post /api/v1/agent/message',
  'post /api/v1/agent/message/stream',
  'post /api/v1/agent/continue',
  'post /api/v1/agent/action/{actionId}/execute',
  'post /api/v1/agent/action/{actionId}/complete',
  'post /api/v1/agent/identify',
  'get /api/v1/agent/popular-prompts',
  'get /api/v1/agent/personalization',
  'post /api/v1/agent/escalation',
  'post /api/v1/agent/escalation/{id}/message',
  'get /api/v1/agent/escalation/{id}',
  'get /api/v1/agent/escalation/{id}/stream',
  'post /api/v1/agent/escalation/{id}/abandon',
  'get /api/v1/escalations',
  'get /api/v1/escalations/{id}',
  'get /api/v1/escalations/stream',
  'post /api/v1/escalations/{id}/claim',
  'post /api/v1/escalations/{id}/message',
  'post /api/v1/escalations/{id}/resolve',
];

describe('the client SDK types', () => {
  it('include every route of the specification, so no method falls back to a hand-written shape', () => {
    const generated = readFileSync(clientTypesPath, 'utf8');
    const missing = specRoutes.filter((route) => {
      const [method, path] = route.split(' ') as [string, string];
      const start = generated.indexOf(`    "${path}": {`);
      if (start === -1) return true;
      const end = generated.indexOf('\n    };\n', start);
      return !new RegExp(`\\n        ${method}: \\{`).test(generated.slice(start, end));
    });
    expect(missing).toEqual([]);
  });
});

// Compile-time: a route type that resolved to `never` would silently accept anything.
type Checked<X> = [X] extends [never] ? 'never' : 'ok';
export const everyRouteTypeResolves: Array<'ok'> = [] as Array<
  | Checked<T.CreateSessionRequest>
  | Checked<T.CreateSessionReply>
  | Checked<T.EndSessionReply>
  | Checked<T.PendingAction>
  | Checked<T.MessageRequest>
  | Checked<T.MessageReply['message']['actions'][number]>
  | Checked<T.ContinueRequest['results'][number]>
  | Checked<T.ContinueReply['isDone']>
  | Checked<T.ExecuteActionReply>
  | Checked<T.CompleteActionRequest>
  | Checked<T.CompleteActionReply>
  | Checked<T.IdentifyRequest>
  | Checked<T.IdentifyReply>
  | Checked<T.PopularPromptsQuery>
  | Checked<T.PopularPrompts>
  | Checked<T.Personalization>
  | Checked<T.EscalateRequest>
  | Checked<T.Escalation>
  | Checked<T.EscalationMessageReply>
  | Checked<T.EscalationPoll['messages'][number]>
  | Checked<T.AbandonReply>
  | Checked<T.OperatorQueueQuery>
  | Checked<T.OperatorQueue['escalations'][number]>
  | Checked<T.OperatorEscalation>
  | Checked<T.ClaimReply>
  | Checked<T.OperatorReplyReply>
  | Checked<T.ResolveReply>
>;
