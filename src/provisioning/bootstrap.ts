import type { Db } from '../db/database.js';
import { notFound, validationError } from '../http/errors.js';
import { createApiKey } from '../keys/key-service.js';
import { insertProject } from '../projects/project-repository.js';
import { randomToken } from '../shared/secrets.js';
import { createUser, issueUserToken } from '../users/user-service.js';
import { createWorkspace, findWorkspace } from '../workspaces/workspace-repository.js';

export interface BootstrapInput {
  workspaceId?: string | undefined;
  model?: string | undefined;
  modelBaseUrl?: string | undefined;
  modelApiKey?: string | undefined;
  userTokenTtlSeconds: number;
}

/** Exactly the object CONTRACT.md fixes; `parley bootstrap --json` prints it. */
export interface BootstrapResult {
  workspaceId: string;
  projectId: string;
  sdkKey: string;
  operatorKey: string;
  dashboard: { email: string; password: string };
  userToken: string;
}

/**
 * Provisions without the dashboard: a workspace (or adds to an existing one),
 * one project, one sdk key, one operator key, one dashboard user and its token.
 */
export async function bootstrap(db: Db, input: BootstrapInput, validateModel: (model: string, baseUrl: string | undefined) => void): Promise<BootstrapResult> {
  const model = input.model ?? 'demo:parley-demo';
  validateModel(model, input.modelBaseUrl);
  let workspaceId = input.workspaceId;
  if (workspaceId !== undefined) {
    if (!(await findWorkspace(db, workspaceId))) throw notFound(`workspace ${workspaceId}`);
  } else {
    workspaceId = (await createWorkspace(db, 'Parley workspace')).id;
  }
  const suffix = randomToken(6).toLowerCase();
  const project = await insertProject(db, {
    workspaceId,
    name: `Project ${suffix}`,
    model,
    modelBaseUrl: input.modelBaseUrl ?? null,
    modelApiKey: input.modelApiKey ?? null,
  });
  const sdk = await createApiKey(db, { workspaceId, name: `sdk key for ${project.name}`, scope: 'sdk', projectId: project.id });
  const operator = await createApiKey(db, { workspaceId, name: 'Operator', scope: 'operator' });
  const password = randomToken(18);
  const email = `admin-${suffix}@parley.local`;
  const user = await createUser(db, { email, name: 'Parley admin', password, workspaceId });
  const token = await issueUserToken(db, user.id, input.userTokenTtlSeconds);
  if (!sdk.key.startsWith('ak_')) throw validationError('key generation failed');
  return { workspaceId, projectId: project.id, sdkKey: sdk.key, operatorKey: operator.key, dashboard: { email, password }, userToken: token.token };
}
