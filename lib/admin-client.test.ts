// The typed admin client (lib/admin-client.ts) against the real mock in-process: the calls the
// console and integrators' tests make, answered as openapi/admin documents them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type Harness, startHarness } from '../test/mock/harness.ts';
import { createAdminClient } from './admin-client.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('createAdminClient', () => {
  it('reads and advances the virtual clock (openapi/admin: getClock, advanceClock)', async () => {
    const admin = createAdminClient(h.base, ADMIN_TOKEN);
    const before = await admin.GET('/clock');
    expect(before.response.status).toBe(200);
    const after = await admin.POST('/clock/advance', { body: { seconds: 60 } });
    expect(after.response.status).toBe(200);
    expect(Date.parse(after.data?.iso ?? '') - Date.parse(before.data?.iso ?? '')).toBe(60_000);
  });

  it('sends the bearer token: a wrong one is refused with 401 in the error shape (openapi/admin, security)', async () => {
    const admin = createAdminClient(h.base, 'wrong');
    const { response, error } = await admin.GET('/clock');
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ code: expect.any(String) });
  });

  it('switches a tenant licence with a typed path parameter (openapi/admin: updateTenant)', async () => {
    const admin = createAdminClient(h.base, ADMIN_TOKEN);
    const { data, response } = await admin.PATCH('/tenants/{tenantId}', {
      params: { path: { tenantId: 'demo' } },
      body: { mcpAccess: 'read' },
    });
    expect(response.status).toBe(200);
    expect(data?.mcpAccess).toBe('read');
  });
});
