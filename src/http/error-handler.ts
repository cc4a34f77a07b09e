import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from './errors.js';
import { failure } from './envelope.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** "body.results[0].actionId must be string": names the field, not just the rule. */
function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const where = context === 'querystring' ? 'query' : (context ?? 'body');
  return issues
    .slice(0, 3)
    .map((issue) => {
      let path = (issue.instancePath ?? '')
        .split('/')
        .filter(Boolean)
        .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
        .join('');
      const params = issue.params ?? {};
      if (issue.keyword === 'required' && typeof params['missingProperty'] === 'string') {
        return `${where}${path}.${params['missingProperty']} is required`;
      }
      if (issue.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
        return `${where}${path}.${params['additionalProperty']} is not allowed`;
      }
      if (path === '' && where === 'body' && issue.keyword === 'type') path = '';
      return `${where}${path} ${issue.message ?? 'is invalid'}`;
    })
    .join('; ');
}

function fromFastifyError(error: FastifyError): { code: ErrorCode; message: string } | null {
  if (error.validation) {
    return { code: 'VALIDATION_ERROR', message: describeValidation(error.validationContext, error.validation as ValidationIssue[]) };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'PAYLOAD_TOO_LARGE', message: 'request body is larger than the limit' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'request body must be application/json' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 'BAD_REQUEST', message: 'Content-Length does not match the body' };
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { code: 'BAD_REQUEST', message: 'request body is not valid JSON' };
  }
  if (error.statusCode === 413) return { code: 'PAYLOAD_TOO_LARGE', message: 'request body is larger than the limit' };
  if (error.statusCode === 415) return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'request body must be application/json' };
  if (error.statusCode === 400) return { code: 'BAD_REQUEST', message: 'malformed request' };
  return null;
}

/**
 * One handler writes every failure: AppErrors as they are, Fastify's own
 * client errors mapped to the code table, anything else as INTERNAL_ERROR
 * with the detail in the log only.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error, cause: error.cause }, 'request failed');
      return reply.code(error.status).headers(error.headers).send(failure(error.code, error.message));
    }
    const mapped = fromFastifyError(error);
    if (mapped) {
      const status = mapped.code === 'VALIDATION_ERROR' ? 422 : (error.statusCode ?? 400);
      return reply.code(status).send(failure(mapped.code, mapped.message));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send(failure('INTERNAL_ERROR', 'internal error; the request id identifies it in the server log'));
  });

  app.setNotFoundHandler((request, reply) => {
    return reply.code(404).send(failure('NOT_FOUND', `route ${request.method} ${request.url.split('?')[0]} not found`));
  });
}
