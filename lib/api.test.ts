// The programmatic API in-process, as the kit's own code (docs/guide.md, "Use it from your tests"):
// mocks that do not see each other, the seed and clock choices, the typed admin client, stop(), bad
// options refused with a sentence, and the conformance suite run from code. The same API from an
// installed package: test/package/outside.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../mock/seed/demo.ts';
import { type Mock, runConformance, startMock } from './api.ts';

const started: Mock[] = [];
async function start(options?: Parameters<typeof startMock>[0]) {
  const mock = await startMock(options);
  started.push(mock);
  return mock;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((m) => m.stop()));
});

const v1 = (mock: Mock, path: string, init: { method?: string; json?: unknown } = {}) =>
  fetch(`${mock.url}/openapi/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': mock.siteApiKey, 'content-type': 'application/json' },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });

/** The mock's virtual time, through the typed admin client. */
const now = async (mock: Mock) => (await mock.admin.GET('/clock')).data?.now ?? Number.NaN;

const newUser = (email: string) => ({ name: 'Ines', email, password: 'secret123', roleAlias: 'learner' });

describe('startMock', () => {
  it('gives the demo tenant with its site key and MCP keys on a free loopback port', async () => {
    const mock = await start();
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.siteApiKey).toBe(DEMO_SITE_API_KEY);
    expect(mock.mcpKeys).toEqual({ read: demoMcpKey('read'), write: demoMcpKey('write') });
    const courses = await v1(mock, '/courses');
    expect(courses.status).toBe(200);
    expect((await courses.json()).totalCount).toBe(48);
    const caps = await fetch(`${mock.url}/api/v2/mcp/capabilities`, {
      headers: { 'x-mcp-key': mock.mcpKeys.read },
    });
    expect(await caps.json()).toMatchObject({ scopes: { read: true, write: false } });
  });

  it('runs many mocks in one process that do not see each other (state, clock, licence, tokens)', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect(a.url).not.toBe(b.url);
    expect(a.adminToken).not.toBe(b.adminToken);
    expect((await v1(a, '/users', { method: 'POST', json: newUser('only-a@example.com') })).status).toBe(201);
    const lastEmail = async (m: Mock) =>
      (await (await v1(m, '/webhook/user.created/last')).json()).body.user.email;
    expect(await lastEmail(a)).toBe('only-a@example.com');
    expect(await lastEmail(b)).not.toBe('only-a@example.com');
    expect((await v1(b, '/users', { method: 'POST', json: newUser('only-a@example.com') })).status).toBe(201);

    await a.admin.POST('/clock/advance', { body: { seconds: 3600 } });
    await a.admin.PATCH('/tenants/{tenantId}', {
      params: { path: { tenantId: a.tenantId } },
      body: { mcpAccess: 'none' },
    });
    expect(await now(a)).toBe((await now(b)) + 3600);
    const capsOf = (m: Mock) =>
      fetch(`${m.url}/api/v2/mcp/capabilities`, { headers: { 'x-mcp-key': m.mcpKeys.write } });
    expect((await capsOf(a)).status).toBe(403);
    expect((await capsOf(b)).status).toBe(200);
    // One mock's token does not open the other's admin API.
    const foreign = await fetch(`${b.url}/__admin/clock`, {
      headers: { authorization: `Bearer ${a.adminToken}` },
    });
    expect(foreign.status).toBe(401);
  });

  it('freezes the virtual clock by default (docs/adr-0002: deterministic) and runs it on request', async () => {
    const frozen = await start();
    const running = await start({ clock: 'running' });
    const before = [await now(frozen), await now(running)] as const;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await now(frozen)).toBe(before[0]);
    expect(await now(running)).toBeGreaterThan(before[1]);
  });

  it('makes a read key and a read + write key for the administrator of the empty seed', async () => {
    const mock = await start({ seed: 'empty' });
    expect((await (await v1(mock, '/courses')).json()).totalCount).toBe(0);
    expect(mock.mcpKeys.read).toMatch(/^lmcp_[A-Za-z0-9_-]{43}$/);
    const caps = async (key: string) =>
      (await fetch(`${mock.url}/api/v2/mcp/capabilities`, { headers: { 'x-mcp-key': key } })).json();
    expect(await caps(mock.mcpKeys.read)).toMatchObject({
      scopes: { read: true, write: false },
      user: { name: 'Ada Admin' },
    });
    expect(await caps(mock.mcpKeys.write)).toMatchObject({ scopes: { read: true, write: true } });
  });

  it('takes the port, admin token and rate limit it is given', async () => {
    const free = await start();
    const port = Number(new URL(free.url).port);
    await free.stop();
    const mock = await start({ port, adminToken: 'my-token', rateLimit: 1 });
    expect(mock.url).toBe(`http://127.0.0.1:${port}`);
    const clock = await fetch(`${mock.url}/__admin/clock`, { headers: { authorization: 'Bearer my-token' } });
    expect(clock.status).toBe(200);
    const caps = () =>
      fetch(`${mock.url}/api/v2/mcp/capabilities`, { headers: { 'x-mcp-key': mock.mcpKeys.read } });
    expect((await caps()).status).toBe(200);
    const limited = await caps();
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: 'MCP_RATE_LIMITED' });
  });

  it('stops: the port is closed, open connections end, and a second stop() is harmless', async () => {
    const mock = await start();
    await mock.stop();
    await mock.stop();
    await expect(fetch(`${mock.url}/openapi/v1/courses`)).rejects.toThrow();
  });

  it.each([
    [{ seed: 'nope' }, /unknown seed nope; known: demo, empty/],
    [{ clock: 'stopped' }, /clock is 'frozen' or 'running'/],
    [{ port: 70_000 }, /not a port: 70000/],
    [{ rateLimit: -1 }, /rateLimit takes a whole number/],
  ])('refuses bad options with a sentence: %j', async (options, message) => {
    await expect(startMock(options as never)).rejects.toThrow(message);
  });

  it('says why when the port is taken', async () => {
    const mock = await start();
    await expect(startMock({ port: Number(new URL(mock.url).port) })).rejects.toThrow(
      /cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/,
    );
  });
});

describe('runConformance', () => {
  it('resolves to the JSON report with the outcome: incomplete when some MUST did not run', async () => {
    const mock = await start();
    const seen: string[] = [];
    const report = await runConformance({
      baseUrl: mock.url,
      apiKey: mock.siteApiKey,
      mcpKeys: [mock.mcpKeys.read, mock.mcpKeys.write],
      only: 'v1.courses.*',
      onResult: (r) => seen.push(r.id),
    });
    expect(report).toMatchObject({ tool: 'lmskit conformance', outcome: 'incomplete', baseUrl: mock.url });
    const courses = report.results.filter((r) => r.id.startsWith('v1.courses.'));
    expect(courses.length).toBeGreaterThan(0);
    expect(courses.every((r) => r.status === 'pass')).toBe(true);
    expect(seen).toEqual(report.results.map((r) => r.id));
  });

  it('refuses a run without a baseUrl, or with one that is no URL', async () => {
    await expect(runConformance({ baseUrl: '' })).rejects.toThrow(/baseUrl is required/);
    await expect(runConformance({ baseUrl: '127.0.0.1:4010' })).rejects.toThrow(/baseUrl is not a URL: 127/);
  });
});
