import { Type } from 'typebox';

export const maxIdentifiers = 20;
export const maxIdentifierKeyLength = 64;
export const maxIdentifierValueLength = 512;

export const IdentifyBody = Type.Object(
  {
    userId: Type.String({ minLength: 1, maxLength: 256, description: "the app's own id for the user" }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'display name for escalations and operator tooling' })),
    identifiers: Type.Optional(
      Type.Record(Type.String(), Type.String({ maxLength: maxIdentifierValueLength }), {
        maxProperties: maxIdentifiers,
        description: `lookup keys such as email or phone: at most ${maxIdentifiers} keys of 1–${maxIdentifierKeyLength} characters, values up to ${maxIdentifierValueLength} characters. Never sent to the model.`,
      }),
    ),
  },
  { additionalProperties: false },
);
