import type { FastifyInstance } from 'fastify';
import { validationError } from './errors.js';

/** The path of the first string (value or key) holding a NUL character, or null. */
function findNul(root: unknown, base: string): string | null {
  // Iterative: bodies may be nested thousands deep.
  const stack: Array<[unknown, string]> = [[root, base]];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push([item, `${path}[${index}]`]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return path;
        stack.push([item, `${path}.${key}`]);
      }
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold NUL (U+0000) and no field has a use for it, so a
 * request carrying one anywhere is refused up front, the same on both dialects,
 * instead of failing deep in a query.
 */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const path = findNul(request.params, 'params') ?? findNul(request.query, 'query') ?? findNul(request.body, 'body');
    done(path === null ? undefined : validationError(`${path} must not contain NUL characters`));
  });
}
