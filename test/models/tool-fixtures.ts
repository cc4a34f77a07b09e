import { jsonSchema, tool } from 'ai';

/**
 * Parley-shaped tools without `execute`: the SDK returns the calls instead of running
 * them, which is how the service hands actions to the app.
 */
export const parleyTools = {
  navigate: tool({
    description: 'Open a screen of the app',
    inputSchema: jsonSchema<{ screen: string; params?: Record<string, unknown> }>({
      type: 'object',
      properties: { screen: { type: 'string' }, params: { type: 'object' } },
      required: ['screen'],
      additionalProperties: false,
    }),
  }),
  escalate: tool({
    description: 'Hand the conversation to a person',
    inputSchema: jsonSchema<{ reason: string }>({
      type: 'object',
      properties: { reason: { type: 'string' } },
      required: ['reason'],
      additionalProperties: false,
    }),
  }),
};
