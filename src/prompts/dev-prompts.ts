import { Type, type Static } from 'typebox';

const PromptText = Type.String({ minLength: 1, maxLength: 200 });

/** The owner's own suggestions, stored in projects.dev_prompts. */
export const DevPrompts = Type.Object(
  {
    global: Type.Array(PromptText, { maxItems: 50, description: 'shown when no screen is given' }),
    screens: Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.Array(PromptText, { maxItems: 50 }), {
      maxProperties: 200,
      description: 'per screen name (context.currentScreen)',
    }),
  },
  { additionalProperties: false },
);

export type DevPrompts = Static<typeof DevPrompts>;

/** Reads the stored JSON; a missing or older shape reads as "none". */
export function parseDevPrompts(json: string): DevPrompts {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { global: [], screens: {} };
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as { global?: unknown; screens?: unknown };
  const strings = (list: unknown): string[] => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
  const screens: Record<string, string[]> = {};
  if (typeof record.screens === 'object' && record.screens !== null) {
    for (const [screen, list] of Object.entries(record.screens)) screens[screen] = strings(list);
  }
  return { global: strings(record.global), screens };
}
