import { Ajv } from 'ajv';
import type { TSchema } from 'typebox';
import { CliError } from './cli-error.js';

const ajv = new Ajv({ strict: false, allErrors: false });

/** Checks CLI input against the same schema the HTTP route uses; one line naming the field on failure. */
export function checkAgainstSchema(schema: TSchema, value: unknown, label: string): void {
  const validate = ajv.compile(schema);
  if (validate(value)) return;
  const issue = validate.errors?.[0];
  const path = (issue?.instancePath ?? '').split('/').filter(Boolean).join('.');
  const extra = issue?.keyword === 'additionalProperties' ? ` (${String(issue.params['additionalProperty'])} is not allowed)` : issue?.keyword === 'required' ? ` (${String(issue.params['missingProperty'])} is required)` : '';
  throw new CliError(`${label}${path ? `.${path}` : ''} ${issue?.message ?? 'is invalid'}${extra}`);
}
