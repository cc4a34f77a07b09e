import { Type, type TSchema, type TObject } from 'typebox';
import { errorCodes, type ErrorCode } from './errors.js';

/** `{ success: true, data }`: the body of every successful JSON response. */
export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

export function failure(code: ErrorCode, message: string): { success: false; error: { code: ErrorCode; message: string } } {
  return { success: false, error: { code, message } };
}

/** Response schema of a success: the envelope around `data`. */
export function Envelope<T extends TSchema>(data: T): TObject<{ success: ReturnType<typeof Type.Literal<true>>; data: T }> {
  return Type.Object({ success: Type.Literal(true), data });
}

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.Union(errorCodes.map((c) => Type.Literal(c))),
      message: Type.String(),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every failure: a code from the error table and a message naming the problem.' },
);

/** Error responses a route documents, by status. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorEnvelope> {
  const out: Record<number, typeof ErrorEnvelope> = {};
  for (const status of statuses) out[status] = ErrorEnvelope;
  return out;
}
