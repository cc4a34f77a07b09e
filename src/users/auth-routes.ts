import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { userPrincipal } from '../auth/principal.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { AppError } from '../http/errors.js';
import { findUser, listUserWorkspaces } from './user-repository.js';
import { revokeUserToken, signIn } from './user-service.js';

const Workspace = Type.Object({ id: Type.String(), name: Type.String(), role: Type.String() });
const User = Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() });

export async function authRoutes(app: App): Promise<void> {
  const { db, auth, config } = app.parley;

  app.post('/auth/login', {
    schema: {
      tags: ['auth'],
      summary: 'Sign in a dashboard user; returns a user token',
      body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 320 }), password: Type.String({ minLength: 1, maxLength: 1024 }) }),
      response: { 200: Envelope(Type.Object({ token: Type.String(), expiresAt: Type.String(), user: User, workspaces: Type.Array(Workspace) })), ...errorResponses(401, 422) },
    },
  }, async (request) => {
    const session = await signIn(db, request.body.email, request.body.password, config.userTokenTtlSeconds);
    return ok({ ...session, workspaces: await listUserWorkspaces(db, session.user.id) });
  });

  app.post('/auth/logout', {
    onRequest: auth.user,
    schema: { tags: ['auth'], summary: 'Revoke the user token used for this call', response: { 200: Envelope(Type.Object({ signedOut: Type.Literal(true) })), ...errorResponses(401, 403) } },
  }, async (request) => {
    await revokeUserToken(db, userPrincipal(request).tokenId);
    return ok({ signedOut: true as const });
  });

  app.get('/auth/me', {
    onRequest: auth.user,
    schema: { tags: ['auth'], summary: 'The signed-in user and their workspaces', response: { 200: Envelope(Type.Object({ user: User, workspaces: Type.Array(Workspace) })), ...errorResponses(401, 403) } },
  }, async (request) => {
    const user = await findUser(db, userPrincipal(request).userId);
    if (!user) throw new AppError('UNAUTHORIZED', 'user no longer exists');
    return ok({ user: { id: user.id, email: user.email, name: user.name }, workspaces: await listUserWorkspaces(db, user.id) });
  });
}
