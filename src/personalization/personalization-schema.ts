import { Type, type Static } from 'typebox';

const Url = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const themeModes = ['light', 'dark', 'system'] as const;

export const Theme = Type.Object(
  {
    colors: Type.Record(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_.-]{0,63}$' }), Type.String({ minLength: 1, maxLength: 64 }), {
      maxProperties: 50,
      description: 'color tokens, e.g. { "primary": "#4f46e5" }',
    }),
    mode: Type.Union([Type.Literal('light'), Type.Literal('dark'), Type.Literal('system')], { description: 'light, dark or system' }),
  },
  { additionalProperties: false },
);

/**
 * What the dashboard saves. Every field optional: an omitted or null field is
 * "not configured" and GET /agent/personalization answers null (or the
 * documented default for poweredByVisible and theme).
 */
export const PersonalizationInput = Type.Object(
  {
    assistantName: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    assistantAvatar: Type.Optional(Nullable(Url('image URL'))),
    emptyStateIcon: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2048, description: 'icon name or image URL' }))),
    welcomeMessage: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2000 }))),
    chatTitle: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    poweredByVisible: Type.Optional(Type.Boolean()),
    theme: Type.Optional(
      Type.Object(
        { colors: Type.Optional(Theme.properties.colors), mode: Type.Optional(Theme.properties.mode) },
        { additionalProperties: false },
      ),
    ),
    defaultLocale: Type.Optional(Nullable(Type.String({ pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$', maxLength: 35, description: 'BCP 47, e.g. en or pt-BR' }))),
    triggerButtonColor: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
    triggerButtonImageUrl: Type.Optional(Nullable(Url('image URL'))),
  },
  { additionalProperties: false },
);

export type PersonalizationInput = Static<typeof PersonalizationInput>;

const nullableString = Type.Union([Type.String(), Type.Null()]);

/** What GET /agent/personalization returns: every field, nulls for unset. personaPrompt is not one of them. */
export const Personalization = Type.Object({
  assistantName: nullableString,
  assistantAvatar: nullableString,
  emptyStateIcon: nullableString,
  welcomeMessage: nullableString,
  chatTitle: nullableString,
  poweredByVisible: Type.Boolean(),
  theme: Theme,
  defaultLocale: nullableString,
  triggerButtonColor: nullableString,
  triggerButtonImageUrl: nullableString,
});

export type Personalization = Static<typeof Personalization>;

/** Defaults for an unconfigured project: "Powered by" shown, no color overrides, light mode. */
export const defaultTheme = { colors: {}, mode: 'light' } as const;

/** The full response from the stored JSON document (anything missing or malformed reads as unset). */
export function personalizationFromJson(json: string): Personalization {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) stored = parsed as Record<string, unknown>;
  } catch {
    // A corrupt document must not take the route down: it reads as "not configured".
  }
  const text = (name: string): string | null => (typeof stored[name] === 'string' ? (stored[name] as string) : null);
  const theme = (typeof stored['theme'] === 'object' && stored['theme'] !== null ? stored['theme'] : {}) as { colors?: unknown; mode?: unknown };
  const colors: Record<string, string> = {};
  if (typeof theme.colors === 'object' && theme.colors !== null) {
    for (const [token, value] of Object.entries(theme.colors)) if (typeof value === 'string') colors[token] = value;
  }
  const mode = themeModes.find((candidate) => candidate === theme.mode) ?? defaultTheme.mode;
  return {
    assistantName: text('assistantName'),
    assistantAvatar: text('assistantAvatar'),
    emptyStateIcon: text('emptyStateIcon'),
    welcomeMessage: text('welcomeMessage'),
    chatTitle: text('chatTitle'),
    poweredByVisible: typeof stored['poweredByVisible'] === 'boolean' ? stored['poweredByVisible'] : true,
    theme: { colors, mode },
    defaultLocale: text('defaultLocale'),
    triggerButtonColor: text('triggerButtonColor'),
    triggerButtonImageUrl: text('triggerButtonImageUrl'),
  };
}

/** The document stored on save: exactly the full shape, so reads never guess. */
export function personalizationToJson(input: PersonalizationInput): string {
  return JSON.stringify(personalizationFromJson(JSON.stringify(input)));
}
