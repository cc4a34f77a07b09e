import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { workspaceUserPrincipal } from '../auth/principal.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { findProjectInWorkspace, listProjects } from '../projects/project-repository.js';
import { NewProjectSettings, ProjectSettings, createProjectWithSettings, updateProjectSettings } from '../projects/project-settings.js';
import { ProjectView, toProjectView } from '../projects/project-view.js';
import { ProjectIdParams } from './admin-schemas.js';

export async function projectAdminRoutes(app: App): Promise<void> {
  const { db, bus, auth } = app.parley;

  app.get('/admin/projects', {
    onRequest: auth.workspaceUser,
    schema: { tags: ['admin'], summary: 'Projects of the workspace', response: { 200: Envelope(Type.Object({ projects: Type.Array(ProjectView) })), ...errorResponses(401, 403, 404) } },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    return ok({ projects: (await listProjects(db, workspaceId)).map(toProjectView) });
  });

  app.post('/admin/projects', {
    onRequest: auth.workspaceUser,
    schema: { tags: ['admin'], summary: 'Create a project', body: NewProjectSettings, response: { 201: Envelope(ProjectView), ...errorResponses(401, 403, 404, 422) } },
  }, async (request, reply) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    const project = await createProjectWithSettings(db, bus, workspaceId, request.body);
    return reply.code(201).send(ok(toProjectView(project)));
  });

  app.get('/admin/projects/:projectId', {
    onRequest: auth.workspaceUser,
    schema: { tags: ['admin'], summary: 'One project', params: ProjectIdParams, response: { 200: Envelope(ProjectView), ...errorResponses(401, 403, 404) } },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    const project = await findProjectInWorkspace(db, workspaceId, request.params.projectId);
    if (!project) throw notFound('project');
    return ok(toProjectView(project));
  });

  app.patch('/admin/projects/:projectId', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'Change project settings',
      description: 'Only the fields sent change. personalization replaces the whole document and refreshes GET /agent/personalization at once. modelApiKey and personaPrompt are write-only.',
      params: ProjectIdParams,
      body: ProjectSettings,
      response: { 200: Envelope(ProjectView), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    return ok(toProjectView(await updateProjectSettings(db, bus, workspaceId, request.params.projectId, request.body)));
  });
}
