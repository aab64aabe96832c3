// In-process HTTP tests of the admin API (openapi/admin), with webhook delivery
// to a real receiver on loopback (docs/mock.md, Webhooks).
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend, MCP_TOOL_HEADER, MCP_USER_AGENT } from '../../mcp-server/backend.ts';
import { ToolRunner } from '../../mcp-server/tools.ts';
import { WebhookDispatcher } from '../../mock/webhooks/dispatcher.ts';
import { ADMIN_TOKEN, DEMO_SITE_API_KEY, type Harness, startHarness, WRITE_KEY } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('admin auth', () => {
  it('answers 401 without the bearer token, and health needs none', async () => {
    expect((await fetch(`${h.base}/__admin/tenants/demo`)).status).toBe(401);
    expect(
      (await fetch(`${h.base}/__admin/tenants/demo`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    const health = await fetch(`${h.base}/__admin/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
  });
});

describe('tenants and licence', () => {
  it('shows the licence fields and the site API key that v1 accepts', async () => {
    const { body } = await h.admin('/tenants/demo');
    expect(body).toMatchObject({ id: 'demo', mcpLicensed: true, mcpAccess: 'full', mcpAiAccess: true });
    const v1 = await fetch(`${h.base}/openapi/v1/courses`, { headers: { 'x-api-key': body.siteApiKey } });
    expect(v1.status).toBe(200);
  });

  it('changes licence fields and keeps the others', async () => {
    const { body } = await h.admin('/tenants/demo', { method: 'PATCH', json: { mcpAiAccess: false } });
    expect(body).toMatchObject({ mcpAccess: 'full', mcpAiAccess: false });
    await h.admin('/tenants/demo', { method: 'PATCH', json: { mcpAiAccess: true } });
  });

  it('lists users with both ids and their role, and answers 404 for an unknown tenant', async () => {
    const { body } = await h.admin('/tenants/demo/users');
    expect(body.users[0]).toEqual({
      id: 1,
      apiId: 'ada',
      name: 'Ada Admin',
      email: 'ada@demo.example',
      role: 'admin',
    });
    expect((await h.admin('/tenants/acme/users')).status).toBe(404);
  });

  it('creates a tenant beside the demo, its licence at the seed default none: every MCP call of a valid key gets 403 MCP_LICENSE_DISABLED (seed 000, Tenant restrictions: `none` (default); Authentication 4; 000/licence.none)', async () => {
    const created = await h.admin('/tenants', {
      method: 'POST',
      json: { id: 'acme-none', admin: { name: 'Ann Acme', email: 'ann@acme.example' } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'acme-none', mcpAccess: 'none', mcpLicensed: true });
    // Its own data behind its own site key: its administrator, none of the demo's courses.
    const site = { 'x-api-key': created.body.siteApiKey };
    const courses = await fetch(`${h.base}/openapi/v1/courses`, { headers: site });
    expect(await courses.json()).toMatchObject({ courses: [], totalCount: 0 });
    const { body: users } = await h.admin('/tenants/acme-none/users');
    expect(users.users).toEqual([expect.objectContaining({ apiId: 'admin', role: 'admin' })]);
    // A key of its administrator is valid, and refused by the licence: 403 MCP_LICENSE_DISABLED.
    const { key } = await h
      .admin('/tenants/acme-none/mcp-keys', {
        method: 'POST',
        json: { userId: 'admin', scopes: ['read', 'write'] },
      })
      .then((r) => r.body);
    for (const reply of [
      await h.v2('/mcp/capabilities', { key }),
      await h.v2('/users?query=admin', { key }),
      await h.v2('/courses/clone', { method: 'POST', json: { courseId: 1 }, key }),
    ]) {
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({
        code: 'MCP_LICENSE_DISABLED',
        error: expect.stringMatching(/MCP is not enabled on this workspace, talk to your administrator/),
      });
    }
    expect((await h.admin('/tenants')).body.tenants.map((t: { id: string }) => t.id)).toContain('acme-none');
  });

  it('refuses a tenant whose id or site API key is taken (409 TENANT_EXISTS), and changes nothing', async () => {
    const taken = await h.admin('/tenants', { method: 'POST', json: { id: 'demo' } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('TENANT_EXISTS');
    const demoKey = (await h.admin('/tenants/demo')).body.siteApiKey;
    const sameKey = await h.admin('/tenants', {
      method: 'POST',
      json: { id: 'copycat', siteApiKey: demoKey },
    });
    expect(sameKey.status).toBe(409);
    expect((await h.admin('/tenants/copycat')).status).toBe(404);
  });

  it("a reset leaves the seed's tenants only", async () => {
    await h.admin('/reset', { method: 'POST', json: {} });
    expect((await h.admin('/tenants')).body.tenants.map((t: { id: string }) => t.id)).toEqual(['demo']);
  });
});

describe('MCP keys (seed 000, MCP key)', () => {
  it('creates a 48-character key with a 5-character prefix, shown once and stored only as SHA-256', async () => {
    const { status, body } = await h.admin('/tenants/demo/mcp-keys', {
      method: 'POST',
      json: { userId: 2, scopes: ['read'] },
    });
    expect(status).toBe(201);
    expect(body.key).toHaveLength(48);
    expect(body.key).toMatch(/^[a-z]{4}_[A-Za-z0-9_-]{43}$/);
    const snapshot = JSON.stringify(h.platform.snapshot());
    expect(snapshot).not.toContain(body.key);
    expect(snapshot).toContain(createHash('sha256').update(body.key).digest('hex'));
    const record = await h.admin(`/tenants/demo/mcp-keys/${body.id}`);
    expect(record.body).toMatchObject({
      id: body.id,
      prefix: 'lmcp_',
      userId: 2,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(record.body)).not.toContain(body.key);
  });

  it('lets a user hold any number of keys, each with its own record', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++)
      ids.add(
        (
          await h.admin('/tenants/demo/mcp-keys', {
            method: 'POST',
            json: { userId: 3, scopes: ['read', 'write'] },
          })
        ).body.id,
      );
    expect(ids.size).toBe(5);
    const { body } = await h.admin('/tenants/demo/mcp-keys');
    expect(body.keys.filter((k: any) => k.userId === 3)).toHaveLength(5);
  });

  it('revokes a key: revokedAt set, revoking again changes nothing', async () => {
    const { body } = await h.admin('/tenants/demo/mcp-keys', {
      method: 'POST',
      json: { userId: 2, scopes: ['read'] },
    });
    const revoked = await h.admin(`/tenants/demo/mcp-keys/${body.id}`, { method: 'DELETE' });
    expect(revoked.body.revokedAt).toBe(h.platform.now());
    await h.admin('/clock/advance', { method: 'POST', json: { seconds: 60 } });
    const again = await h.admin(`/tenants/demo/mcp-keys/${body.id}`, { method: 'DELETE' });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
  });

  it('answers 402 LICENSE_RESTRICTED when the tenant has no MCP licence at all (seed 000, Errors)', async () => {
    await h.admin('/tenants/demo', { method: 'PATCH', json: { mcpLicensed: false } });
    const response = await h.admin('/tenants/demo/mcp-keys', {
      method: 'POST',
      json: { userId: 1, scopes: ['read'] },
    });
    await h.admin('/tenants/demo', { method: 'PATCH', json: { mcpLicensed: true } });
    expect(response).toMatchObject({ status: 402, body: { code: 'LICENSE_RESTRICTED' } });
  });
});

describe('clock', () => {
  it('reads, advances and sets the virtual clock', async () => {
    const start = (await h.admin('/clock')).body.now;
    const advanced = await h.admin('/clock/advance', { method: 'POST', json: { seconds: 3600 } });
    expect(advanced.body.now).toBe(start + 3600);
    const set = await h.admin('/clock/set', { method: 'POST', json: { now: start } });
    expect(set.body).toEqual({ now: start, iso: new Date(start * 1000).toISOString().replace('.000Z', 'Z') });
  });
});

describe('learner progress and publishing', () => {
  it('start, progress and finish move an assignment; finish emits course.finished and issues a certificate', async () => {
    // Lucia is assigned course 1 (Workplace safety, which has a certificate) through group Company.
    const path = '/tenants/demo/users/8/courses/1/progress';
    expect(
      (await h.admin(path, { method: 'POST', json: { action: 'progress', progressValue: 50 } })).body,
    ).toMatchObject({
      status: 'inProgress',
      progressValue: 50,
    });
    const finished = await h.admin(path, { method: 'POST', json: { action: 'finish', resultValue: 90 } });
    expect(finished.body).toMatchObject({
      status: 'finished',
      progressValue: 100,
      resultValue: 90,
      certificateId: expect.any(Number),
    });
    const event = await h.v1('/webhook/course.finished/last');
    expect(event.body).toMatchObject({
      type: 'Course/Finished',
      body: { user: { id: 'lucia' }, course: { id: 1 }, resultValue: 90 },
    });
    const again = await h.admin(path, { method: 'POST', json: { action: 'finish' } });
    expect(again).toMatchObject({ status: 409, body: { code: 'ALREADY_FINISHED' } });
  });

  it('answers 404 for progress on a course the user is not assigned', async () => {
    expect(
      (
        await h.admin('/tenants/demo/users/8/courses/40/progress', {
          method: 'POST',
          json: { action: 'start' },
        })
      ).status,
    ).toBe(404);
  });

  it('publishes a draft once: course.published emitted, isDraft false in v1', async () => {
    const published = await h.admin('/tenants/demo/courses/48/publish', { method: 'POST' });
    expect(published.body).toMatchObject({ id: 48, isDraft: false, publishedAt: h.platform.now() });
    expect((await h.v1('/courses/48')).body.isDraft).toBe(false);
    expect((await h.v1('/webhook/course.published/last')).body.body.course.id).toBe(48);
    const eventsBefore = h.platform.tenant('demo').events.length;
    await h.admin('/tenants/demo/courses/48/publish', { method: 'POST' });
    expect(h.platform.tenant('demo').events.length).toBe(eventsBefore);
  });
});

describe('journal and faults', () => {
  it('journals requests with method, path, status and latency, newest first', async () => {
    await h.v1('/courses/2');
    await h.v1('/courses/9999');
    // The journal request itself is recorded once answered, so the two before it come first.
    const { body } = await h.admin('/journal?limit=2');
    expect(body.requests).toMatchObject([
      { method: 'GET', path: '/openapi/v1/courses/9999', status: 404, api: 'v1' },
      { method: 'GET', path: '/openapi/v1/courses/2', status: 200, api: 'v1' },
    ]);
  });

  it('answers the next N matching requests with an injected status and body, then behaves again', async () => {
    await h.admin('/faults', {
      method: 'POST',
      json: { method: 'GET', path: '/openapi/v1/courses', count: 2, status: 503, body: { oops: true } },
    });
    expect(await h.v1('/courses')).toMatchObject({ status: 503, body: { oops: true } });
    expect((await h.v1('/courses')).status).toBe(503);
    expect((await h.v1('/courses')).status).toBe(200);
    expect((await h.admin('/faults')).body.faults).toEqual([]);
  });

  it('matches a path prefix with a trailing * and can be cleared', async () => {
    await h.admin('/faults', {
      method: 'POST',
      json: { method: 'GET', path: '/openapi/v1/courses/*', count: 5, status: 500 },
    });
    expect((await h.v1('/courses/3')).status).toBe(500);
    await h.admin('/faults', { method: 'DELETE' });
    expect((await h.v1('/courses/3')).status).toBe(200);
  });

  it('applies to v1, v2 and the tool server only, with paths in any case as the router routes them: `/`, the admin API in capitals stay reachable under a fault on /* (admin API, Faults)', async () => {
    await h.admin('/faults', {
      method: 'POST',
      json: { method: 'GET', path: '/*', count: 100, status: 503 },
    });
    try {
      expect((await h.v1('/courses/3')).status).toBe(503);
      expect(
        (await fetch(`${h.base}/OPENAPI/V1/courses/3`, { headers: { 'x-api-key': DEMO_SITE_API_KEY } }))
          .status,
      ).toBe(503);
      expect((await fetch(`${h.base}/`)).status).toBe(200);
      const admin = await fetch(`${h.base}/__ADMIN/faults`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(admin.status).toBe(200);
    } finally {
      await h.admin('/faults', { method: 'DELETE' });
    }
  });

  it('refuses a body pattern of more than 1000 values with 400, adding nothing (admin API, FaultMatch: it is compared with every request)', async () => {
    const big = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    const refused = await h.admin('/faults', {
      method: 'POST',
      json: { method: 'POST', path: '/openapi/v1/users', match: { body: big }, status: 409 },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', error: expect.stringContaining('1000 values') },
    });
    expect((await h.admin('/faults')).body.faults).toEqual([]);
  });

  it('numbers faults from fault_1 again after a reset, which leaves nothing to the next test (admin API, resetState)', async () => {
    const fault = { method: 'GET', path: '/openapi/v1/courses/3', count: 5, status: 500 };
    await h.admin('/faults', { method: 'POST', json: fault });
    await h.admin('/faults', { method: 'POST', json: fault });
    expect((await h.admin('/reset', { method: 'POST', json: {} })).status).toBe(200);
    expect((await h.admin('/faults', { method: 'POST', json: fault })).body.id).toBe('fault_1');
    const cleared = await h.admin('/faults?path=/openapi/v1/courses/3', { method: 'DELETE' });
    expect(cleared.status).toBe(400);
    expect((await h.admin('/faults')).body.faults).toHaveLength(1);
    await h.admin('/faults', { method: 'DELETE' });
  });

  it('removes one fault by id and leaves the others in force (admin API, Faults)', async () => {
    const first = await h.admin('/faults', {
      method: 'POST',
      json: { method: 'GET', path: '/openapi/v1/courses/3', count: 5, status: 500 },
    });
    await h.admin('/faults', {
      method: 'POST',
      json: { method: 'GET', path: '/openapi/v1/courses/4', count: 5, status: 502 },
    });
    const removed = await h.admin(`/faults/${first.body.id}`, { method: 'DELETE' });
    expect(removed).toMatchObject({
      status: 200,
      body: { id: first.body.id, path: '/openapi/v1/courses/3' },
    });
    expect((await h.v1('/courses/3')).status).toBe(200);
    expect((await h.v1('/courses/4')).status).toBe(502);
    const again = await h.admin(`/faults/${first.body.id}`, { method: 'DELETE' });
    expect(again).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect((await h.admin('/faults')).body.faults).toHaveLength(1);
    await h.admin('/faults', { method: 'DELETE' });
  });

  it('adds latency without changing the answer', async () => {
    await h.admin('/faults', {
      method: 'POST',
      json: { method: 'GET', path: '/openapi/v1/courses/4', latencyMs: 150 },
    });
    const started = Date.now();
    const response = await h.v1('/courses/4');
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // The journal's latency is the answer's, the injected wait included (a bound the delay sets, not a
    // measure of speed; timers may fire a millisecond early, hence 140).
    const { body } = await h.admin('/journal?limit=1&path=/openapi/v1/courses/4');
    expect(body.requests[0].latencyMs).toBeGreaterThanOrEqual(140);
  });
});

describe('faults that match query, headers, body, or an MCP tool (admin API, createFault)', () => {
  const fault = (json: unknown) => h.admin('/faults', { method: 'POST', json });
  const asTool = (tool: string) => ({ 'user-agent': MCP_USER_AGENT, [MCP_TOOL_HEADER]: tool });

  it('matches an MCP tool by the X-MCP-Tool header the tool server sends, any method and path', async () => {
    const created = await fault({
      tool: 'ban_user',
      status: 503,
      body: { error: 'down', code: 'UNAVAILABLE' },
    });
    expect(created).toMatchObject({
      status: 201,
      body: { method: null, path: null, tool: 'ban_user', remaining: 1, status: 503 },
    });
    // Not this tool's call, and not a direct call without the header: the real answers.
    expect((await h.v2('/users?query=lena', { headers: asTool('find_user') })).status).toBe(200);
    expect((await h.v2('/users/banned', { method: 'POST', json: { userId: 13 } })).status).toBe(200);
    expect(
      await h.v2('/users/banned', { method: 'POST', json: { userId: 12 }, headers: asTool('ban_user') }),
    ).toMatchObject({ status: 503, body: { code: 'UNAVAILABLE' } });
    // count 1: the first call only; the retry gets through.
    expect(
      (await h.v2('/users/banned', { method: 'POST', json: { userId: 12 }, headers: asTool('ban_user') }))
        .status,
    ).toBe(200);
    const [retry, failed] = (await h.admin('/journal?tool=ban_user&limit=2')).body.requests;
    expect(failed).toMatchObject({ status: 503, tool: 'ban_user', faultId: created.body.id });
    expect(retry).toMatchObject({ status: 200, tool: 'ban_user', faultId: null });
  });

  it("breaks a tool's backend call as the tool server makes it, so the tool reports the failure", async () => {
    const runner = new ToolRunner();
    const backend = new Backend({ baseUrl: h.base, key: WRITE_KEY });
    const tool = runner.tools.get('find_user');
    if (!tool) throw new Error('no tool find_user');
    await fault({
      tool: 'find_user',
      status: 503,
      body: { error: 'Service temporarily unavailable.', code: 'UNAVAILABLE' },
    });
    const broken = await runner.call(tool, { query: 'lena' }, backend);
    expect(broken.result.isError).toBe(true);
    expect(broken.status).toBe(503);
    const again = await runner.call(tool, { query: 'lena' }, backend);
    expect(again.result.isError).toBeFalsy();
    const [ok, failed] = (await h.admin('/journal?tool=find_user&limit=2')).body.requests;
    expect(failed).toMatchObject({ api: 'mcp', status: 503, faultId: expect.stringMatching(/^fault_/) });
    expect(ok).toMatchObject({ api: 'mcp', status: 200, faultId: null });
  });

  it('a 429 on the first call of a tool is retried by the tool server, and the retry succeeds', async () => {
    const runner = new ToolRunner();
    // The tool server's backoff, without its wait: the test asserts what happens, not when.
    const backend = new Backend({ baseUrl: h.base, key: WRITE_KEY, sleep: async () => {} });
    const tool = runner.tools.get('find_user');
    if (!tool) throw new Error('no tool find_user');
    const limited = await fault({
      tool: 'find_user',
      status: 429,
      count: 1,
      body: { error: 'Slow down', code: 'MCP_RATE_LIMITED' },
    });
    const { result } = await runner.call(tool, { query: 'lena' }, backend);
    expect(result.isError).toBeFalsy();
    const [retry, first] = (await h.admin('/journal?tool=find_user&limit=2')).body.requests;
    expect(first).toMatchObject({ status: 429, faultId: limited.body.id });
    expect(retry).toMatchObject({ status: 200, faultId: null });
  });

  it('matches query parameters and headers (names in any case), the first count requests', async () => {
    await fault({
      method: 'GET',
      path: '/api/v2/users',
      match: { query: { query: 'lena' }, headers: { 'X-Request-Source': 'nightly' } },
      count: 2,
      status: 500,
    });
    const nightly = { 'x-request-source': 'nightly' };
    expect((await h.v2('/users?query=lena')).status).toBe(200);
    expect((await h.v2('/users?query=liam', { headers: nightly })).status).toBe(200);
    expect((await h.v2('/users?query=lena', { headers: { 'x-request-source': 'manual' } })).status).toBe(200);
    expect((await h.v2('/users?query=lena', { headers: nightly })).status).toBe(500);
    expect((await h.v2('/users?query=lena', { headers: nightly })).status).toBe(500);
    expect((await h.v2('/users?query=lena', { headers: nightly })).status).toBe(200);
  });

  it('matches a JSON body as a pattern; an older fault whose body differs leaves the request to a newer one', async () => {
    const byBody = await fault({
      method: 'POST',
      path: '/openapi/v1/users',
      match: { body: { email: 'taken@example.com' } },
      status: 409,
      body: { status: 409, message: 'taken' },
    });
    expect(byBody.body.match).toEqual({ body: { email: 'taken@example.com' } });
    const user = (email: string) => ({ name: 'Ines', email, password: 'secret123', roleAlias: 'learner' });
    expect((await h.v1('/users', { method: 'POST', json: user('free@example.com') })).status).toBe(201);
    expect(await h.v1('/users', { method: 'POST', json: user('taken@example.com') })).toMatchObject({
      status: 409,
      body: { message: 'taken' },
    });
    // The body was read for the fault: the journal still shows it.
    const [entry] = (await h.admin('/journal?status=409&limit=1&full=true')).body.requests;
    expect(entry).toMatchObject({
      faultId: byBody.body.id,
      operationId: 'createUser',
      // Found by the operation, so its schema masks the password as it does for any createUser.
      request: { body: { email: 'taken@example.com', password: '••••' } },
    });

    await fault({
      method: 'POST',
      path: '/openapi/v1/groups',
      match: { body: { name: 'Nope' } },
      status: 418,
    });
    const plain = await fault({ method: 'POST', path: '/openapi/v1/groups', status: 503 });
    expect((await h.v1('/groups', { method: 'POST', json: { name: 'Other' } })).status).toBe(503);
    expect((await h.admin('/faults')).body.faults.map((f: { id: string }) => f.id)).not.toContain(
      plain.body.id,
    );
    // A request without a JSON body never matches a body pattern.
    await fault({ method: 'GET', path: '/openapi/v1/courses/1', match: { body: {} }, status: 418 });
    expect((await h.v1('/courses/1')).status).toBe(200);
    // A body the fault could not read is the same 400 the API gives.
    const malformed = await fetch(`${h.base}/openapi/v1/groups`, {
      method: 'POST',
      headers: { 'x-api-key': DEMO_SITE_API_KEY, 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(malformed.status).toBe(400);
    await h.admin('/faults', { method: 'DELETE' });
  });

  it('keeps the existing shapes, and refuses a fault that names neither method and path nor tool', async () => {
    const old = await fault({ method: 'GET', path: '/openapi/v1/courses/7', status: 500 });
    expect(old.body).toEqual({
      id: old.body.id,
      method: 'GET',
      path: '/openapi/v1/courses/7',
      tool: null,
      remaining: 1,
      status: 500,
      latencyMs: null,
    });
    for (const json of [{ status: 500 }, { method: 'GET', status: 500 }, { tool: 'Ban User', status: 500 }]) {
      const refused = await fault(json);
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
    }
    await h.admin('/faults', { method: 'DELETE' });
  });
});

describe('snapshot and reset', () => {
  it('exports a snapshot and imports it back, restoring state that changed in between', async () => {
    const exported = (await h.admin('/snapshot')).body;
    expect(exported).toMatchObject({ format: 'lmskit-state', version: 1 });
    await h.v1('/groups', { method: 'POST', json: { name: 'Temporary' } });
    const groups = h.platform.tenant('demo').groups.size;
    const imported = await h.admin('/snapshot', { method: 'PUT', json: exported });
    expect(imported.body.tenants).toEqual(['demo']);
    expect(h.platform.tenant('demo').groups.size).toBe(groups - 1);
  });

  it('refuses something that is not a snapshot and changes nothing', async () => {
    const before = JSON.stringify(h.platform.snapshot());
    const response = await h.admin('/snapshot', {
      method: 'PUT',
      json: { format: 'something-else', version: 1, now: 0, tenants: {} },
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(h.platform.snapshot())).toBe(before);
  });

  it("refuses a counter past the largest 32-bit id; at the last id handed out, refuses writes in each API's shape (503, no Retry-After) and changes nothing until a reset", async () => {
    const exported = (await h.admin('/snapshot')).body;
    const past = structuredClone(exported);
    past.tenants.demo.seq.assignment = 2 ** 31;
    const refused = await h.admin('/snapshot', { method: 'PUT', json: past });
    expect(refused.status).toBe(400);
    const last = structuredClone(exported);
    last.tenants.demo.seq.user = 2_000_000_000;
    expect((await h.admin('/snapshot', { method: 'PUT', json: last })).status).toBe(200);
    const before = h.platform.snapshot();
    const user = {
      name: 'One more',
      email: 'one.more@example.com',
      password: 'secret123',
      roleAlias: 'learner',
    };
    const v1 = await h.v1('/users', { method: 'POST', json: user });
    expect(v1.status).toBe(503);
    expect(v1.body.message).toMatch(/tenant demo has handed out its last id of seq\.user \(2000000000/);
    expect(v1.headers.get('retry-after')).toBeNull();
    const v2 = await h.v2('/users/banned', { method: 'POST', json: { userId: 5 } });
    expect({ status: v2.status, code: v2.body.code }).toEqual({ status: 503, code: 'STATE_NOT_SAVED' });
    expect(h.platform.snapshot()).toEqual(before);
    // Reads go on; a reset hands out ids again.
    expect((await h.v1('/courses')).status).toBe(200);
    await h.admin('/reset', { method: 'POST', json: {} });
    expect((await h.v1('/users', { method: 'POST', json: user })).status).toBe(201);
  });

  it("resets to the demo seed, or to the empty seed, whose MCP access is seed 000's default none while the demo's is full (000/licence.none)", async () => {
    await h.v1('/groups', { method: 'POST', json: { name: 'Gone after reset' } });
    expect((await h.admin('/reset', { method: 'POST', json: { seed: 'empty' } })).body.seed).toBe('empty');
    expect(h.platform.tenant('demo').users.size).toBe(1);
    expect((await h.admin('/tenants/demo')).body).toMatchObject({ mcpAccess: 'none', mcpLicensed: true });
    const { key } = await h.newKey('ada', ['read', 'write']);
    const refused = await h.v2('/mcp/capabilities', { key });
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 403,
      code: 'MCP_LICENSE_DISABLED',
    });
    await h.admin('/reset', { method: 'POST', json: {} });
    expect(h.platform.tenant('demo').groups.size).toBe(4);
    expect((await h.admin('/tenants/demo')).body).toMatchObject({ mcpAccess: 'full' });
  });

  it('puts back everything a test can change — state, clock, limits, faults, journal — and says so', async () => {
    const seedNow = (await h.admin('/reset', { method: 'POST', json: {} })).body.now;
    await h.admin('/clock/advance', { method: 'POST', json: { seconds: 86_400 } });
    await h.admin('/faults', {
      method: 'POST',
      json: { method: 'GET', path: '/openapi/v1/courses', status: 503 },
    });
    await h.v1('/groups', { method: 'POST', json: { name: 'Gone after reset' } });
    const { status, body } = await h.admin('/reset', { method: 'POST' });
    expect(status).toBe(200);
    expect(body).toEqual({
      seed: 'demo',
      now: seedNow,
      reset: ['state', 'clock', 'limits', 'faults', 'journal'],
      kept: [],
    });
    expect((await h.admin('/clock')).body.now).toBe(seedNow);
    expect((await h.admin('/faults')).body.faults).toEqual([]);
    expect((await h.v1('/courses')).status).toBe(200);
    // The journal starts empty: the reset that cleared it is not in it either.
    const journal = (await h.admin('/journal')).body;
    expect(journal.requests.map((e: { path: string }) => e.path)).toEqual([
      '/openapi/v1/courses',
      '/__admin/faults',
      '/__admin/clock',
    ]);
  });

  it('keeps the faults or the journal when asked to', async () => {
    await h.admin('/faults', {
      method: 'POST',
      json: { method: 'GET', path: '/openapi/v1/courses/8', status: 503 },
    });
    await h.v1('/courses/9');
    const { body } = await h.admin('/reset', { method: 'POST', json: { keep: ['faults', 'journal'] } });
    expect(body).toMatchObject({ reset: ['state', 'clock', 'limits'], kept: ['faults', 'journal'] });
    const paths = (await h.admin('/journal')).body.requests.map((e: { path: string }) => e.path);
    expect(paths.slice(0, 2)).toEqual(['/__admin/reset', '/openapi/v1/courses/9']);
    expect((await h.v1('/courses/8')).status).toBe(503);
    const refused = await h.admin('/reset', { method: 'POST', json: { keep: ['clock'] } });
    expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });
});

describe('webhook delivery (docs/adr-0002: webhook delivery; seed 001, Events)', () => {
  let receiver: Server;
  let url = '';
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  let failuresLeft = 0;
  let dispatcher: WebhookDispatcher;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (failuresLeft > 0) {
          failuresLeft--;
          res.writeHead(500).end();
          return;
        }
        received.push({ headers: req.headers, body });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    dispatcher = new WebhookDispatcher(h.platform, { baseDelayMs: 20 });
    dispatcher.start();
  });
  afterAll(async () => {
    dispatcher.stop();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const deliveries = async () => (await h.admin('/tenants/demo/webhooks/deliveries')).body.deliveries;
  // Waits for the delivery itself, however long a busy machine takes; the test timeout bounds it.
  const until = async (check: () => Promise<boolean>) => {
    while (!(await check())) await new Promise((r) => setTimeout(r, 20));
  };

  it('POSTs the envelope signed with HMAC-SHA256 of the body, with an event id', async () => {
    const created = await h.admin('/tenants/demo/webhooks', {
      method: 'POST',
      json: { url, secret: 'receiver-secret', events: ['user.created'] },
    });
    expect(created).toMatchObject({ status: 201, body: { url, events: ['user.created'] } });
    expect(created.body).not.toHaveProperty('secret');
    await h.v1('/users', {
      method: 'POST',
      json: { name: 'Hooked', email: 'hooked@example.test', password: 'password1', roleAlias: 'learner' },
    });
    await until(async () => received.length > 0);
    const [delivery] = received;
    const expected = `sha256=${createHmac('sha256', 'receiver-secret')
      .update(delivery?.body ?? '')
      .digest('hex')}`;
    expect(delivery?.headers['x-lmskit-signature']).toBe(expected);
    expect(delivery?.headers['x-lmskit-event']).toBe('user.created');
    expect(delivery?.headers['x-lmskit-event-id']).toMatch(/^evt_\d+$/);
    expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({
      type: 'User/Created',
      body: { user: { email: 'hooked@example.test' } },
    });
  });

  it('shows a delivery with the body and signature the receiver got, byte for byte (admin API, getWebhookDelivery)', async () => {
    const [sent] = received;
    const [latest] = await deliveries();
    const detail = await h.admin(`/tenants/demo/webhooks/deliveries/${latest.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.delivery).toMatchObject({ id: latest.id, state: 'delivered' });
    expect(detail.body.request).toMatchObject({
      url,
      body: sent?.body,
      headers: {
        'x-lmskit-signature': sent?.headers['x-lmskit-signature'],
        'x-lmskit-event-id': sent?.headers['x-lmskit-event-id'],
      },
    });
    const missing = await h.admin('/tenants/demo/webhooks/deliveries/dlv_999999');
    expect(missing).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('retries a failed delivery with backoff until it is delivered, and logs every attempt', async () => {
    failuresLeft = 2;
    received.length = 0;
    await h.v1('/users', {
      method: 'POST',
      json: { name: 'Retried', email: 'retried@example.test', password: 'password1', roleAlias: 'learner' },
    });
    await until(async () => (await deliveries())[0]?.state === 'delivered');
    const [latest] = await deliveries();
    expect(latest.state).toBe('delivered');
    expect(latest.attempts.map((a: any) => a.status)).toEqual([500, 500, 200]);
    expect(received).toHaveLength(1);
  });

  it('only sends the event types a receiver asked for', async () => {
    const before = (await deliveries()).length;
    await h.v1('/groups', { method: 'POST', json: { name: 'No hook for this' } });
    await h.admin('/tenants/demo/users/5/courses/1/progress', { method: 'POST', json: { action: 'start' } });
    expect((await deliveries()).length).toBe(before);
  });
});

describe('AI settings (docs/adr-0002: generation 10–30 s, configurable; failure injected through the admin API)', () => {
  it('reads the defaults and changes them; min above max is refused', async () => {
    expect((await h.admin('/tenants/demo/ai')).body).toMatchObject({
      generationMinSeconds: 10,
      generationMaxSeconds: 30,
      failNextJobs: 0,
    });
    const changed = await h.admin('/tenants/demo/ai', {
      method: 'PATCH',
      json: { generationMinSeconds: 0, generationMaxSeconds: 0 },
    });
    expect(changed.body).toMatchObject({ generationMinSeconds: 0, generationMaxSeconds: 0 });
    const bad = await h.admin('/tenants/demo/ai', { method: 'PATCH', json: { generationMinSeconds: 5 } });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it('makes the next job fail with the given message', async () => {
    await h.admin('/tenants/demo/ai', {
      method: 'PATCH',
      json: {
        generationMinSeconds: 0,
        generationMaxSeconds: 0,
        failNextJobs: 1,
        failureMessage: 'Injected.',
      },
    });
    const { body } = await h.v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'Create a course about knots' },
    });
    const job = await h.v2(`/ai/courses/generate/${body.jobId}`);
    expect(job.body).toMatchObject({ status: 'failed', error: { message: 'Injected.' } });
    const next = await h.v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'Create a course about knots' },
    });
    expect((await h.v2(`/ai/courses/generate/${next.body.jobId}`)).body.status).toBe('completed');
  });
});
