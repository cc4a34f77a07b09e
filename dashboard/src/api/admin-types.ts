import type { ResponseData } from '../../../packages/client/src/route-types';

/*
 * Admin response types, read from the OpenAPI types generated from the server's route
 * schemas (packages/client, `npm run generate:client`), so the dashboard cannot drift
 * from the server. Type imports only: nothing of the client package is bundled.
 */

export type Project = ResponseData<'/api/v1/admin/projects/{projectId}', 'get'>;
export type Personalization = Project['personalization'];
export type ThemeSettings = Personalization['theme'];
export type DevPrompts = Project['devPrompts'];
export type ApiKeySummary = ResponseData<'/api/v1/admin/keys', 'get'>['keys'][number];
export type ActionType = ResponseData<'/api/v1/admin/projects/{projectId}/action-types', 'get'>['actionTypes'][number];
