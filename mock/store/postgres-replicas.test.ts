// What two mocks of one shared store (docs/mock.md, Shared sandbox), each a replica, hold as one besides
// the platform, against a real PostgreSQL (test/postgres.ts): the per-key rate limit and the failed
// logins per client (docs/adr-0002), which the admin API of either shows and resets, the injected
// faults with their counts, and webhook deliveries.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

describe('shared store: a key’s last use (admin API, listMcpKeys)', () => {
  it('a key used through one replica shows its lastUsedAt through the other, and their snapshots agree', async () => {
    await twoReplicas(async (a, b) => {
      const tenant = { params: { path: { tenantId: a.tenantId } } };
      const before = (await b.admin.GET('/tenants/{tenantId}/mcp-keys', tenant)).data?.keys ?? [];
      expect(before.every((k) => k.lastUsedAt === null)).toBe(true);
      expect((await v2(a, a.mcpKeys.read)).status).toBe(200);
      const after = (await b.admin.GET('/tenants/{tenantId}/mcp-keys', tenant)).data?.keys ?? [];
      expect(after.filter((k) => k.lastUsedAt !== null).map((k) => k.id)).toEqual(['key_demo_read']);
      const [one, two] = await Promise.all([a, b].map(async (m) => (await m.admin.GET('/snapshot')).data));
      expect(one).toEqual(two);
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

describe('shared store: webhook deliveries are one for the sandbox (docs/mock.md, Webhooks)', () => {
  /** A receiver that counts each event's deliveries; it refuses the first attempt of each when told to. */
  async function receiver(refuseFirst = false) {
    const seen = new Map<string, number>();
    const server = createServer((req, res) => {
      const id = String(req.headers['x-lmskit-event-id']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      req.resume();
      res.statusCode = refuseFirst && seen.get(id) === 1 ? 500 : 204;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/hook`, seen, close: () => server.close() };
  }

  const register = (mock: Mock, url: string) =>
    mock.admin.POST('/tenants/{tenantId}/webhooks', {
      params: { path: { tenantId: mock.tenantId } },
      body: { url, secret: 'shared-sandbox-secret' },
    });
  const createUser = (mock: Mock, i: number) =>
    fetch(`${mock.url}/openapi/v1/users`, {
      method: 'POST',
      headers: { 'x-api-key': mock.siteApiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `Hook ${i}`,
        email: `hook-${i}@demo.example`,
        password: 'Zebra-Sunrise-42',
        roleAlias: 'learner',
      }),
    });
  const deliveries = async (mock: Mock) =>
    (
      await mock.admin.GET('/tenants/{tenantId}/webhooks/deliveries', {
        params: { path: { tenantId: mock.tenantId } },
      })
    ).data?.deliveries ?? [];

  it('events made through both replicas reach the receiver once each, though both replicas see every delivery', async () => {
    const hook = await receiver();
    try {
      await twoReplicas(async (a, b) => {
        expect((await register(a, hook.url)).response.status).toBe(201);
        for (let i = 0; i < 10; i++) expect((await createUser(i % 2 ? b : a, i)).status).toBe(201);
        await vi.waitFor(
          async () => {
            for (const mock of [a, b]) {
              const all = await deliveries(mock);
              expect(all.length).toBeGreaterThanOrEqual(10);
              expect(all.every((d) => d.state === 'delivered')).toBe(true);
            }
          },
          { timeout: 30_000, interval: 50 },
        );
        expect(hook.seen.size).toBeGreaterThanOrEqual(10);
        expect([...hook.seen.values()].every((n) => n === 1)).toBe(true);
      });
    } finally {
      hook.close();
    }
  });

  it('a retry falls to the replica that is alive: attempt 1 by one replica, which stops; attempt 2 by the one that joins', async () => {
    const hook = await receiver(true);
    const store = await db.database();
    const a = await startMock({ store });
    let b: Mock | undefined;
    try {
      expect((await register(a, hook.url)).response.status).toBe(201);
      expect((await createUser(a, 1)).status).toBe(201);
      await vi.waitFor(async () => expect((await deliveries(a))[0]?.attempts).toHaveLength(1), {
        timeout: 30_000,
        interval: 20,
      });
      await a.stop();
      b = await startMock({ store });
      const joined = b;
      await vi.waitFor(async () => expect((await deliveries(joined))[0]?.state).toBe('delivered'), {
        timeout: 30_000,
        interval: 50,
      });
      expect([...hook.seen.values()]).toEqual([2]);
    } finally {
      await a.stop();
      await b?.stop();
      hook.close();
    }
  });
});
