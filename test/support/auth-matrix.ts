import { expect, it } from 'vitest';
import { ApiClient } from './api-client.js';
import type { Tenant, TestServer } from './harness.js';

export type Surface = 'sdk' | 'operator' | 'admin';

export interface RouteUnderTest {
  method: string;
  /** Path with this tenant's ids filled in. */
  path: (tenant: Tenant) => string;
  body?: (tenant: Tenant) => unknown;
  surface: Surface;
}

function wrongScopeClient(surface: Surface, tenant: Tenant): ApiClient {
  return surface === 'sdk' ? tenant.operator : tenant.sdk;
}

/**
 * The checks every authenticated route must pass: no key, malformed key,
 * unknown key and wrong-scope key. (Other tenants' ids are per route: they
 * need a resource that exists in another tenant.)
 */
export function itRejectsBadCredentials(getServer: () => TestServer, getTenant: () => Promise<Tenant>, route: RouteUnderTest): void {
  const label = `${route.method} ${route.path({ projectId: ':projectId', workspaceId: ':workspaceId' } as Tenant)}`;

  it(`${label}: 401 without credentials, with a malformed or unknown key`, async () => {
    const tenant = await getTenant();
    const body = route.body?.(tenant);
    for (const authorization of [undefined, 'Basic abc', 'Bearer nope', 'Bearer ak_thisKeyDoesNotExist0000000000000000000000']) {
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      if (route.surface !== 'sdk') headers['x-workspace-id'] = tenant.workspaceId;
      const response = await new ApiClient(getServer().url, headers).request(route.method, route.path(tenant), body);
      expect(response.status, authorization ?? 'no header').toBe(401);
      expect(response.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
      expect(response.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it(`${label}: 403 WRONG_SCOPE with the other scope's key`, async () => {
    const tenant = await getTenant();
    const response = await wrongScopeClient(route.surface, tenant).request(route.method, route.path(tenant), route.body?.(tenant));
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ success: false, error: { code: 'WRONG_SCOPE' } });
  });
}
