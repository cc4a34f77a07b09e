import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { workspaceUserPrincipal } from '../auth/principal.js';
import { channels } from '../events/event-bus.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { actionTypePattern, checkActionTypeDefinition, deleteActionType, listActionTypes, putActionType } from '../projects/action-type-repository.js';
import { findProjectInWorkspace } from '../projects/project-repository.js';
import { ProjectIdParams } from './admin-schemas.js';

const McpVersion = Type.String({ minLength: 1, maxLength: 64, description: "the app build's mcpVersion this type belongs to; absent for every build" });

const ActionTypeView = Type.Object({
  type: Type.String(),
  mcpVersion: Type.Union([Type.String(), Type.Null()]),
  description: Type.String(),
  payloadSchema: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Type.String(),
});

const ActionTypeParams = Type.Object({ ...ProjectIdParams.properties, type: Type.String({ pattern: actionTypePattern, description: 'action type name' }) });

/** The project's action catalog: types beyond the built-in navigate and escalate. */
export async function actionTypeAdminRoutes(app: App): Promise<void> {
  const { db, bus, auth } = app.parley;

  const requireProject = async (workspaceId: string, projectId: string) => {
    if (!(await findProjectInWorkspace(db, workspaceId, projectId))) throw notFound('project');
  };

  app.get('/admin/projects/:projectId/action-types', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: "The project's own action types",
      params: ProjectIdParams,
      querystring: Type.Object({ mcpVersion: Type.Optional(McpVersion) }),
      response: { 200: Envelope(Type.Object({ actionTypes: Type.Array(ActionTypeView) })), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    await requireProject(workspaceId, request.params.projectId);
    return ok({ actionTypes: await listActionTypes(db, request.params.projectId, request.query.mcpVersion) });
  });

  app.put('/admin/projects/:projectId/action-types/:type', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'Define or replace an action type (payload schema checked as JSON Schema)',
      params: ActionTypeParams,
      body: Type.Object(
        {
          description: Type.Optional(Type.String({ maxLength: 2000, description: 'what the action does, for the model' })),
          payloadSchema: Type.Record(Type.String(), Type.Unknown(), { description: 'JSON Schema of the payload; "type": "object"' }),
          mcpVersion: Type.Optional(McpVersion),
        },
        { additionalProperties: false },
      ),
      response: { 200: Envelope(ActionTypeView), 201: Envelope(ActionTypeView), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request, reply) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    const { projectId, type } = request.params;
    await requireProject(workspaceId, projectId);
    checkActionTypeDefinition(type, request.body.payloadSchema);
    const mcpVersion = request.body.mcpVersion ?? null;
    const created = await putActionType(db, { projectId, type, mcpVersion, description: request.body.description ?? '', payloadSchema: request.body.payloadSchema });
    await bus.publish(channels.projectUpdated, { projectId });
    const view = (await listActionTypes(db, projectId, mcpVersion ?? '')).find((item) => item.type === type);
    if (!view) throw notFound('action type');
    return reply.code(created ? 201 : 200).send(ok(view));
  });

  app.delete('/admin/projects/:projectId/action-types/:type', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'Remove an action type',
      params: ActionTypeParams,
      querystring: Type.Object({ mcpVersion: Type.Optional(McpVersion) }),
      response: { 200: Envelope(Type.Object({ deleted: Type.Literal(true) })), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    const { projectId, type } = request.params;
    await requireProject(workspaceId, projectId);
    if (!(await deleteActionType(db, projectId, type, request.query.mcpVersion ?? null))) throw notFound('action type');
    await bus.publish(channels.projectUpdated, { projectId });
    return ok({ deleted: true as const });
  });
}
