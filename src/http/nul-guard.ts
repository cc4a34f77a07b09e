import type { FastifyInstance } from 'fastify';
import { validationError } from './errors.js';

/** Whether any string (value or key) holds a NUL character: the cheap check every request pays. */
function hasNul(root: unknown): boolean {
  // Iterative and without building paths; findNul names the field only when this says yes.
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (typeof value === 'object' && value !== null) {
      if (Array.isArray(value)) {
        for (const item of value) stack.push(item);
      } else {
        for (const key in value) {
          if (key.includes('\u0000')) return true;
          stack.push((value as Record<string, unknown>)[key]);
        }
      }
    }
  }
  return false;
}

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
    if (!hasNul(request.params) && !hasNul(request.query) && !hasNul(request.body)) {
      done();
      return;
    }
    const path = findNul(request.params, 'params') ?? findNul(request.query, 'query') ?? findNul(request.body, 'body');
    done(path === null ? undefined : validationError(`${path} must not contain NUL characters`));
  });
}
