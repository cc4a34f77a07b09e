import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../http/errors.js';
import type { Authenticator } from './authenticator.js';

function bearer(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw new AppError('UNAUTHORIZED', 'missing Authorization header: send Authorization: Bearer ak_…');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new AppError('UNAUTHORIZED', 'malformed Authorization header: expected Bearer <key>');
  return match[1];
}

function workspaceHeader(request: FastifyRequest): string {
  const value = request.headers['x-workspace-id'];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AppError('UNAUTHORIZED', 'a user token needs the X-Workspace-Id header naming the workspace');
  }
  return value.trim();
}

/**
 * The auth hooks routes put at their top (`onRequest: auth.sdk`). They run
 * before body parsing and validation, so an unauthenticated caller learns
 * nothing about the body it sent, and every wrong-scope answer is the same:
 * 403 WRONG_SCOPE.
 */
export function authHooks(authenticator: Authenticator) {
  /** /agent/*: an sdk key, nothing else. */
  const sdk: onRequestAsyncHookHandler = async (request) => {
    const credential = bearer(request);
    if (!credential.startsWith('ak_')) throw new AppError('UNAUTHORIZED', 'malformed API key: expected Authorization: Bearer ak_…');
    const principal = await authenticator.apiKey(credential);
    if (principal.kind !== 'sdk-key') throw new AppError('WRONG_SCOPE', 'this route needs an sdk-scoped key; an operator key works only on /escalations routes');
    request.principal = principal;
  };

  /** /escalations/*: an operator key, or a dashboard user token with X-Workspace-Id. */
  const operator: onRequestAsyncHookHandler = async (request) => {
    const credential = bearer(request);
    if (credential.startsWith('ut_')) {
      request.principal = await authenticator.userToken(credential, workspaceHeader(request));
      return;
    }
    if (!credential.startsWith('ak_')) throw new AppError('UNAUTHORIZED', 'malformed API key: expected Authorization: Bearer ak_…');
    const principal = await authenticator.apiKey(credential);
    if (principal.kind !== 'operator-key') throw new AppError('WRONG_SCOPE', 'this route needs an operator-scoped key or a dashboard user token; an sdk key works only on /agent routes');
    request.principal = principal;
  };

  /** Admin routes: a dashboard user token with X-Workspace-Id (membership checked). */
  const workspaceUser: onRequestAsyncHookHandler = async (request) => {
    const credential = bearer(request);
    if (credential.startsWith('ak_')) {
      // An invalid key is 401 like everywhere else; only a valid one is the wrong scope.
      await authenticator.apiKey(credential);
      throw new AppError('WRONG_SCOPE', 'admin routes need a dashboard user token, not an API key');
    }
    request.principal = await authenticator.userToken(credential, workspaceHeader(request));
  };

  /** Routes about the signed-in user itself (who am I, sign out). */
  const user: onRequestAsyncHookHandler = async (request) => {
    const credential = bearer(request);
    if (credential.startsWith('ak_')) {
      await authenticator.apiKey(credential);
      throw new AppError('WRONG_SCOPE', 'this route needs a dashboard user token, not an API key');
    }
    request.principal = await authenticator.userToken(credential, null);
  };

  return { sdk, operator, workspaceUser, user };
}

export type AuthHooks = ReturnType<typeof authHooks>;
