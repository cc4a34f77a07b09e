import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { workspaceUserPrincipal } from '../auth/principal.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { deleteEndUser, findEndUser, listEndUsers, listSessionsOfUser, type EndUser } from '../identify/end-user-repository.js';
import { findProjectInWorkspace } from '../projects/project-repository.js';
import { ProjectIdParams } from './admin-schemas.js';

const EndUserView = Type.Object({
  userId: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  identifiers: Type.Record(Type.String(), Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const EndUserParams = Type.Object({ ...ProjectIdParams.properties, userId: Type.String({ minLength: 1, maxLength: 256, description: "the app's userId, URL-encoded" }) });

const toView = (user: EndUser) => ({ userId: user.userId, name: user.name, identifiers: user.identifiers, createdAt: user.createdAt, updatedAt: user.updatedAt });

/** Identified users: readable and deletable here only (spec: a dashboard-only capability). */
export async function endUserAdminRoutes(app: App): Promise<void> {
  const { db, auth } = app.parley;

  const requireProject = async (workspaceId: string, projectId: string) => {
    if (!(await findProjectInWorkspace(db, workspaceId, projectId))) throw notFound('project');
  };

  app.get('/admin/projects/:projectId/end-users', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'Identified users of a project, newest first',
      params: ProjectIdParams,
      querystring: Type.Object({
        search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'case-insensitive substring of userId or name' })),
        cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'nextCursor of the previous page' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
      }),
      response: { 200: Envelope(Type.Object({ endUsers: Type.Array(EndUserView), nextCursor: Type.Union([Type.String(), Type.Null()]) })), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    await requireProject(workspaceId, request.params.projectId);
    const limit = request.query.limit ?? 50;
    // One extra row tells whether another page exists.
    const rows = await listEndUsers(db, request.params.projectId, { limit: limit + 1, after: request.query.cursor, search: request.query.search });
    const page = rows.slice(0, limit);
    return ok({ endUsers: page.map(toView), nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null });
  });

  app.get('/admin/projects/:projectId/end-users/:userId', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'One identified user and their recent sessions',
      params: EndUserParams,
      response: {
        200: Envelope(Type.Object({ ...EndUserView.properties, sessions: Type.Array(Type.Object({ sessionId: Type.String(), createdAt: Type.String(), endedAt: Type.Union([Type.String(), Type.Null()]) })) })),
        ...errorResponses(401, 403, 404),
      },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    const { projectId, userId } = request.params;
    await requireProject(workspaceId, projectId);
    const user = await findEndUser(db, projectId, userId);
    if (!user) throw notFound('identified user');
    return ok({ ...toView(user), sessions: await listSessionsOfUser(db, projectId, userId) });
  });

  app.delete('/admin/projects/:projectId/end-users/:userId', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'Delete an identified user (sessions stay, no longer linked to a person)',
      params: EndUserParams,
      response: { 200: Envelope(Type.Object({ deleted: Type.Literal(true) })), ...errorResponses(401, 403, 404) },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    const { projectId, userId } = request.params;
    await requireProject(workspaceId, projectId);
    if (!(await deleteEndUser(db, projectId, userId))) throw notFound('identified user');
    return ok({ deleted: true as const });
  });
}
