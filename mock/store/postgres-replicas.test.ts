// What two mocks of one shared store (docs/mock.md, Shared sandbox), each a replica, hold as one besides
// the platform, against a real PostgreSQL (test/postgres.ts): the per-key rate limit and the failed
// logins per client (docs/adr-0002), which the admin API of either shows and resets, and the injected
// faults with their counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../package/index.ts';
import { startPostgres, type TestPostgres } from '../../test/postgres.ts';

let db: TestPostgres;
beforeAll(async () => {
  db = await startPostgres();
});
afterAll(async () => db?.close());

type Mock = Awaited<ReturnType<typeof startMock>>;

/** Two replicas of a fresh store, stopped after `use`. */
async function twoReplicas(use: (a: Mock, b: Mock) => Promise<void>, rateLimit?: number): Promise<void> {
  const store = await db.database();
  const a = await startMock({ store, rateLimit });
  const b = await startMock({ store, rateLimit });
  try {
    await use(a, b);
  } finally {
    await a.stop();
    await b.stop();
  }
}

const v2 = (mock: Mock, key: string) =>
  fetch(`${mock.url}/api/v2/mcp/capabilities`, { headers: { 'x-mcp-key': key } });

describe('shared store: one rate limit and one failed-login count for every replica (docs/adr-0002)', () => {
  it('a key’s 6 requests a minute are spent across both replicas: the 7th is refused 429 MCP_RATE_LIMITED on either', async () => {
    await twoReplicas(async (a, b) => {
      const key = a.mcpKeys.read;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await v2(i % 2 ? b : a, key)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      for (const mock of [a, b]) {
        const refused = await v2(mock, key);
        expect(refused.status).toBe(429);
        expect(((await refused.json()) as { code: string }).code).toBe('MCP_RATE_LIMITED');
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // Another key has a bucket of its own.
      expect((await v2(b, a.mcpKeys.write)).status).toBe(200);
    }, 6);
  });

  it('the admin API of one replica shows what the other counted, and its reset gives the key a full bucket on both', async () => {
    await twoReplicas(async (a, b) => {
      const key = a.mcpKeys.read;
      for (let i = 0; i < 4; i++) expect((await v2(a, key)).status).toBe(200);
      const tenant = { params: { path: { tenantId: b.tenantId } } };
      const { data: limits } = await b.admin.GET('/tenants/{tenantId}/limits', tenant);
      const held = limits?.keys.find((k) => key.startsWith(k.prefix));
      expect(held?.requestsInWindow).toBe(4);
      expect((await b.admin.POST('/tenants/{tenantId}/limits/reset', tenant)).response.status).toBe(200);
      for (let i = 0; i < 4; i++) expect((await v2(a, key)).status).toBe(200);
    }, 4);
  });

  it('20 failed logins from one client spread over both replicas lock that client out of either (429 MCP_AUTH_RATE_LIMITED)', async () => {
    await twoReplicas(async (a, b) => {
      for (let i = 0; i < 20; i++) expect((await v2(i % 2 ? b : a, `mcp_wrong_${i}`)).status).toBe(401);
      for (const mock of [a, b]) {
        // Even with a good key: the client is locked out, not the key.
        const refused = await v2(mock, a.mcpKeys.read);
        expect(refused.status).toBe(429);
        expect(((await refused.json()) as { code: string }).code).toBe('MCP_AUTH_RATE_LIMITED');
      }
      // A reset through one replica forgets the failures for both (docs/mock.md, the admin API: reset).
      await a.reset();
      expect((await v2(b, a.mcpKeys.read)).status).toBe(200);
    });
  });
});

describe('shared store: one set of injected faults for every replica (docs/mock.md, Faults)', () => {
  const course = (mock: Mock) =>
    fetch(`${mock.url}/openapi/v1/courses`, { headers: { 'x-api-key': mock.siteApiKey } });

  it('a fault added through one replica with count 2 answers twice in the whole sandbox, then is gone from both', async () => {
    await twoReplicas(async (a, b) => {
      const fault = await a.fault({ method: 'GET', path: '/openapi/v1/courses', status: 503, count: 2 });
      const statuses = [];
      for (const mock of [b, a, b, a]) statuses.push((await course(mock)).status);
      expect(statuses).toEqual([503, 503, 200, 200]);
      const listed = await b.admin.GET('/faults');
      expect(listed.data?.faults).toEqual([]);
      expect(
        (await a.admin.DELETE('/faults/{faultId}', { params: { path: { faultId: fault.id } } })).response
          .status,
      ).toBe(404);
    });
  });

  it('replicas racing on a one-time fault: exactly one request in the sandbox gets it', async () => {
    await twoReplicas(async (a, b) => {
      await b.fault({ method: 'GET', path: '/openapi/v1/courses', status: 503, count: 1 });
      const statuses = await Promise.all(
        [a, b, a, b, a, b].map((mock) => course(mock).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 503)).toHaveLength(1);
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    });
  });

  it('a replica joining later finds the faults in force, and a clear through one clears them for all', async () => {
    const store = await db.database();
    const a = await startMock({ store });
    let b: Mock | undefined;
    try {
      await a.fault({ method: 'GET', path: '/openapi/v1/courses', status: 500, count: 5 });
      b = await startMock({ store });
      expect((await course(b)).status).toBe(500);
      await b.clearFaults();
      expect((await course(a)).status).toBe(200);
    } finally {
      await a.stop();
      await b?.stop();
    }
  });
});
