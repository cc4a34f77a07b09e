import { Type } from 'typebox';
import { Id } from '../http/common-schemas.js';

/** Largest user message accepted, in characters (the spec leaves it open). */
export const maxContentLength = 16_000;

const Context = Type.Object({ currentScreen: Type.Optional(Type.String({ maxLength: 256 })) }, { additionalProperties: true, description: 'opaque UI context; currentScreen recommended' });

export const MessageBody = Type.Object({
  content: Type.String({ minLength: 1, maxLength: maxContentLength, description: "the user's message" }),
  sessionId: Type.Optional(Id('session to continue; a new one is created when omitted')),
  context: Type.Optional(Context),
  mcpVersion: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "version of the app's MCP document; picks the action catalog" })),
});

export const ActionEnvelope = Type.Object({
  id: Type.String(),
  type: Type.String(),
  payload: Type.Object({}, { additionalProperties: true }),
});

export const Usage = Type.Object({ tokensUsed: Type.Number(), modelUsed: Type.String(), latencyMs: Type.Number() });

export const MessageResponse = Type.Object({
  sessionId: Type.String(),
  message: Type.Object({
    id: Type.String(),
    role: Type.Literal('assistant'),
    content: Type.String(),
    summary: Type.String(),
    actions: Type.Array(ActionEnvelope),
  }),
  usage: Usage,
});

export const ContinueBody = Type.Object({
  sessionId: Id('session of the turn'),
  results: Type.Array(
    Type.Object({
      actionId: Id('action id (act_…)'),
      type: Type.String({ minLength: 1, maxLength: 64 }),
      success: Type.Boolean(),
      error: Type.Optional(Type.String({ maxLength: 2000 })),
      summary: Type.Optional(Type.String({ maxLength: 2000 })),
    }),
    { maxItems: 50 },
  ),
  context: Context,
  hop: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'advisory: the server tracks hops itself; used to recognise retries' })),
});

export const ContinueResponse = Type.Object({
  sessionId: Type.String(),
  message: Type.Object({ id: Type.String(), role: Type.Literal('assistant'), content: Type.String(), actions: Type.Array(ActionEnvelope) }),
  usage: Usage,
  isDone: Type.Boolean(),
  hop: Type.Integer(),
});

export const ActionIdParams = Type.Object({ actionId: Id('action id (act_…)') });

export const CompleteBody = Type.Object({
  success: Type.Boolean(),
  error: Type.Optional(Type.String({ maxLength: 2000, description: 'failure reason when success is false' })),
});

export const PendingActionsResponse = Type.Object({
  actions: Type.Array(Type.Object({ id: Type.String(), type: Type.String(), payload: Type.Object({}, { additionalProperties: true }), messageId: Type.String() })),
});
