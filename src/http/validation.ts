import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// ajv-formats is CommonJS; its default export arrives one level down under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

function newAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

/**
 * Bodies are validated exactly as sent (a JSON "true" is not a boolean), while
 * query strings, params and headers — always text on the wire — are coerced.
 */
export function installValidation(app: FastifyInstance): void {
  const bodyAjv = newAjv(false);
  const textAjv = newAjv('array');
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'body') return textAjv.compile(schema);
    const validate = bodyAjv.compile(schema);
    // A missing body is checked as {}: routes whose fields are all optional accept
    // it, and the others answer "body.<field> is required" rather than "must be object".
    return (data: unknown) => {
      const value = data ?? {};
      if (validate(value)) return { value };
      return { error: Object.assign(new Error('request body failed validation'), { validation: validate.errors }) };
    };
  });
}
