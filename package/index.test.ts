// The programmatic API in-process, as the kit's own code (docs/guide.md, "Use it from your tests"):
// mocks that do not see each other, the seed and clock choices, the typed admin client, stop(), bad
// options refused with a sentence, and the conformance suite run from code. The same API from an
// installed package: test/package/outside.test.ts.
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toolNames, toolNamesOf } from '../lib/tool-schemas.ts';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../mock/seed/demo.ts';
import { type McpClient, type Mock, runConformance, startMcpServer, startMock } from './index.ts';

const READ_TOOLS = toolNamesOf('read');
const ALL_TOOLS = toolNames();

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

/** An address of this machine other than loopback, if it has one: where another machine would connect. */
const otherAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('startMock', () => {
  it.each([
    ['a one-character adminToken', 'x'],
    ['an adminToken with a space', 'long enough token with spaces'],
  ])('refuses %s as the command refuses --admin-token', async (_, adminToken) => {
    await expect(startMock({ adminToken })).rejects.toThrow(
      /^startMock: adminToken takes 16 to 1024 printable ASCII characters without spaces/,
    );
  });

  it('says so when it listens on every interface, as the command does', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await start({ host: '0.0.0.0' });
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^startMock: listening on every interface/));
    } finally {
      warn.mockRestore();
    }
  });

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

  it("makes a read key and a read + write key for the administrator of the empty seed, whose MCP access is seed 000's default none until the test turns it on", async () => {
    const mock = await start({ seed: 'empty' });
    expect((await (await v1(mock, '/courses')).json()).totalCount).toBe(0);
    expect(mock.mcpKeys.read).toMatch(/^lmcp_[A-Za-z0-9_-]{43}$/);
    const caps = async (key: string) =>
      (await fetch(`${mock.url}/api/v2/mcp/capabilities`, { headers: { 'x-mcp-key': key } })).json();
    expect(await caps(mock.mcpKeys.read)).toMatchObject({ code: 'MCP_LICENSE_DISABLED' });
    await mock.admin.PATCH('/tenants/{tenantId}', {
      params: { path: { tenantId: mock.tenantId } },
      body: { mcpAccess: 'full' },
    });
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
    const mock = await start({ port, adminToken: 'my-own-admin-token', rateLimit: 1 });
    expect(mock.url).toBe(`http://127.0.0.1:${port}`);
    const clock = await fetch(`${mock.url}/__admin/clock`, {
      headers: { authorization: 'Bearer my-own-admin-token' },
    });
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

describe('verify, faults and reset from a test (Mock: requests, clearRequests, fault, clearFaults, reset)', () => {
  it('gives the requests a client sent, in full and oldest first, filtered by body; clearRequests empties it', async () => {
    const mock = await start();
    await v1(mock, '/users', { method: 'POST', json: newUser('ines@example.com') });
    await v1(mock, '/users', { method: 'POST', json: newUser('other@example.com') });

    const found = await mock.requests({ operationId: 'createUser', body: { email: 'ines@example.com' } });
    expect(found).toHaveLength(1);
    const [created] = found;
    if (!created) throw new Error('no request found');
    expect(created).toMatchObject({
      method: 'POST',
      status: 201,
      api: 'v1',
      request: { body: { email: 'ines@example.com' } },
    });
    expect(created.request.body).toMatchObject({ password: '••••' });
    expect(created.response.body).toMatchObject({ email: 'ines@example.com' });
    const both = await mock.requests({ api: 'v1', method: 'POST' });
    expect(both.map((r) => (r.request.body as { email: string }).email)).toEqual([
      'ines@example.com',
      'other@example.com',
    ]);

    await mock.clearRequests();
    expect(await mock.requests()).toEqual([]);
    await expect(mock.requests({ operation: 'createUser' } as never)).rejects.toThrow(
      /VALIDATION_ERROR: .*query\.operation/,
    );
  });

  it('injects a first-call-only fault, whose retry succeeds, and reset clears faults and journal', async () => {
    const mock = await start();
    const fault = await mock.fault({ method: 'GET', path: '/openapi/v1/courses/1', status: 503 });
    expect((await v1(mock, '/courses/1')).status).toBe(503);
    expect((await v1(mock, '/courses/1')).status).toBe(200);
    expect((await mock.requests({ path: '/courses/1' })).map((r) => [r.status, r.faultId])).toEqual([
      [503, fault.id],
      [200, null],
    ]);

    await mock.fault({ tool: 'ban_user', status: 500 });
    expect(await mock.reset()).toMatchObject({
      reset: ['state', 'clock', 'limits', 'faults', 'journal'],
      kept: [],
    });
    expect(await mock.requests()).toEqual([]);
    expect((await mock.admin.GET('/faults')).data?.faults).toEqual([]);
    await mock.fault({ method: 'GET', path: '/openapi/v1/courses/2', status: 500 });
    await mock.clearFaults();
    expect((await v1(mock, '/courses/2')).status).toBe(200);
    await expect(mock.fault({ status: 500 })).rejects.toThrow(/mock\.fault: VALIDATION_ERROR/);
  });
});

describe('fixtures, AI timing and the scale seed (startMock: fixtures, ai, seedScale; mock.loadFixtures)', () => {
  const EXAMPLE = 'docs/fixtures-example.yaml';
  const v2 = (mock: Mock, key: string, path: string, json?: unknown) =>
    fetch(`${mock.url}/api/v2${path}`, {
      method: json === undefined ? 'GET' : 'POST',
      headers: { 'x-mcp-key': key, 'content-type': 'application/json' },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  /** A course generated from a prompt, polled once: the job's status on a frozen clock. */
  const generated = async (mock: Mock) => {
    const job = await (
      await v2(mock, mock.mcpKeys.write, '/ai/courses/generate', { prompt: 'Fire safety' })
    ).json();
    return (await (await v2(mock, mock.mcpKeys.write, `/ai/courses/generate/${job.jobId}`)).json()).status;
  };

  it('starts from the fixtures of a YAML file: their first tenant, its site key and the keys they give', async () => {
    const mock = await start({ fixtures: EXAMPLE });
    expect(mock).toMatchObject({ tenantId: 'acme', siteApiKey: 'acme_site_key_0123456789abcdef' });
    expect(mock.mcpKeys).toEqual({
      read: 'lmcp_fixture-key-ada-read-only-00000000000000000',
      write: 'lmcp_fixture-key-ada-read-write-0000000000000000',
    });
    expect((await (await v1(mock, '/courses')).json()).totalCount).toBe(3);
    expect(await now(mock)).toBe(Date.parse('2026-03-02T09:00:00Z') / 1000);
    const overdue = await mock.admin.GET('/tenants/{tenantId}/assignments', {
      params: { path: { tenantId: 'acme' }, query: { status: 'overdue' } },
    });
    expect(overdue.data?.assignments).toMatchObject([{ userId: 2, courseId: 3 }]);
    // The file's own AI settings (0 s): a job ends on a frozen clock without advancing it.
    expect(await generated(mock)).toBe('completed');
  });

  it('makes the keys the fixtures lack for their first administrator, and says why when it cannot', async () => {
    const users = [{ id: 'ada', name: 'Ada', email: 'ada@acme.example', role: 'admin' as const }];
    const mock = await start({ fixtures: { tenants: [{ id: 'acme', mcpAccess: 'full', users }] } });
    const caps = await (await v2(mock, mock.mcpKeys.read, '/mcp/capabilities')).json();
    expect(caps).toMatchObject({ user: { name: 'Ada' }, scopes: { read: true, write: false } });

    const learners = [{ id: 'lena', name: 'Lena', email: 'lena@acme.example', role: 'learner' as const }];
    const keyless = await start({ fixtures: { tenants: [{ id: 'acme', users: learners }] } });
    expect((await v1(keyless, '/courses')).status).toBe(200);
    expect(() => keyless.mcpKeys.write).toThrow(
      "mock.mcpKeys.write: the fixtures' tenant acme has no administrator to own MCP keys and gives no write key",
    );
  });

  it('a reset brings back the fixtures it started from (a named seed replaces them); loadFixtures loads them or others; a problem rejects naming the entry and field', async () => {
    const mock = await start({ fixtures: EXAMPLE });
    await mock.fault({ method: 'GET', path: '/openapi/v1/courses', status: 503 });
    expect(await mock.reset()).toMatchObject({
      seed: 'fixtures',
      now: 1772442000,
      reset: expect.arrayContaining(['state', 'faults']),
    });
    expect((await (await v1(mock, '/courses')).json()).totalCount).toBe(3);
    await mock.reset({ seed: 'demo' });
    expect((await v1(mock, '/courses')).status).toBe(401); // the demo seed: acme is gone
    expect(await mock.loadFixtures()).toEqual({ now: 1772442000, tenants: ['acme'] });
    expect((await (await v1(mock, '/courses')).json()).totalCount).toBe(3);
    await expect(mock.loadFixtures({ tenants: [{ id: 'acme' }, { id: 'acme' }] })).rejects.toThrow(
      'mock.loadFixtures: VALIDATION_ERROR: tenants[1].id: already used by tenants[0]',
    );
    const plain = await start();
    await expect(plain.loadFixtures()).rejects.toThrow(/did not start from fixtures/);
  });

  it('gives every tenant it starts with the AI settings of `ai`, after a reset too, so jobs end on a frozen clock', async () => {
    const mock = await start({ ai: { generationMinSeconds: 0, generationMaxSeconds: 0 } });
    expect(await generated(mock)).toBe('completed');
    await mock.reset();
    const settings = await mock.admin.GET('/tenants/{tenantId}/ai', {
      params: { path: { tenantId: 'demo' } },
    });
    expect(settings.data).toMatchObject({ generationMinSeconds: 0, generationMaxSeconds: 0 });
    // Without it, the seed's 10–30 s: on a frozen clock the job stays queued.
    expect(await generated(await start())).toBe('queued');
  });

  it('starts from the scale seed of seedScale', async () => {
    const mock = await start({ seedScale: 'users=200,courses=7,assignments=300' });
    expect((await (await v1(mock, '/courses')).json()).totalCount).toBe(7);
    expect(mock.tenantId).toBe('demo');
  });

  it.each([
    [
      { seed: 'demo', fixtures: EXAMPLE },
      'startMock: seed and fixtures each give the state to start from; give one',
    ],
    [{ fixtures: 'docs/none.yaml' }, 'startMock: fixtures: docs/none.yaml: no such file'],
    [
      {
        fixtures: {
          tenants: [{ id: 'a', users: [{ id: 'x', name: 'X', email: 'x@a.example', role: 'boss' }] }],
        },
      },
      'startMock: fixtures: tenants[0].users[0].role: must be one of admin, manager, author, learner',
    ],
    [
      { ai: { generationMaxSeconds: 0 } },
      'startMock: ai: generationMinSeconds (10) must not exceed generationMaxSeconds (0)',
    ],
    [{ seedScale: 'users=0' }, 'startMock: seedScale: "users=0" is not one of users=N'],
  ])('refuses bad fixtures, ai and seedScale options with a sentence: %j', async (options, message) => {
    await expect(startMock(options as never)).rejects.toThrow(message);
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

  it('runs the AI generation checks to pass against a frozen clock when `ai` makes jobs end at once', async () => {
    const mock = await start({ ai: { generationMinSeconds: 0, generationMaxSeconds: 0 } });
    const roleKey = async (userId: string) =>
      (
        await mock.admin.POST('/tenants/{tenantId}/mcp-keys', {
          params: { path: { tenantId: mock.tenantId } },
          body: { userId, scopes: ['read', 'write'] },
        })
      ).data?.key ?? '';
    const report = await runConformance({
      baseUrl: mock.url,
      apiKey: mock.siteApiKey,
      mcpKeys: [mock.mcpKeys.read, mock.mcpKeys.write],
      roleKeys: {
        manager: await roleKey('max'),
        author: await roleKey('aria'),
        learner: await roleKey('lena'),
      },
      allowWrites: true,
      only: 'v2.ai.*',
    });
    const ai = report.results.filter((r) => r.id.startsWith('v2.ai.'));
    expect(ai.map((r) => r.id)).toContain('v2.ai.generate.flow');
    expect(ai.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  }, 120_000); // runs the AI checks: a few seconds quiet, past 30 s beside busy processes; guards a hang

  it('refuses a run without a baseUrl, or with one that is no URL', async () => {
    await expect(runConformance({ baseUrl: '' })).rejects.toThrow(/baseUrl is required/);
    await expect(runConformance({ baseUrl: '127.0.0.1:4010' })).rejects.toThrow(
      /baseUrl 127\.0\.0\.1:4010 is not a URL/,
    );
  });
});

describe('startMcpServer and mock.mcpClient: the tool server in-process', () => {
  /** The process's TCP servers and sockets (`process.getActiveResourcesInfo`). */
  const tcpHandles = () => process.getActiveResourcesInfo().filter((r) => r.startsWith('TCP')).length;
  const tick = () => new Promise((r) => setTimeout(r, 20));
  /** The count once connections still closing are gone: the same for 10 checks in a row (at most ~5 s). */
  async function quiet(): Promise<number> {
    let count = tcpHandles();
    for (let same = 0, i = 0; same < 10 && i < 250; i++) {
      await tick();
      same = tcpHandles() === count ? same + 1 : 0;
      count = tcpHandles();
    }
    return count;
  }
  /** The count once it is at most `atMost`, or after ~5 s. */
  async function settled(atMost: number): Promise<number> {
    for (let i = 0; i < 250 && tcpHandles() > atMost; i++) await tick();
    return tcpHandles();
  }
  const names = async (client: McpClient) => (await client.listTools()).tools.map((t) => t.name);
  const jsonRpc = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  it.skipIf(!otherAddress)(
    'on every interface, a request from another machine without X-MCP-Key is refused 401: `key` acts for this machine only',
    async () => {
      const mock = await start();
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const tools = await startMcpServer({
        baseUrl: mock.url,
        key: mock.mcpKeys.read,
        host: '0.0.0.0',
        allowedHosts: [otherAddress as string],
      });
      try {
        expect(warn).toHaveBeenCalledWith(expect.stringMatching(/must send their own X-MCP-Key/));
        const port = new URL(tools.url).port;
        expect((await jsonRpc(`http://${otherAddress}:${port}/mcp`)).status).toBe(401);
        const own = await jsonRpc(`http://${otherAddress}:${port}/mcp`, { 'x-mcp-key': mock.mcpKeys.read });
        expect(own.status).toBe(200);
        expect((await jsonRpc(`http://127.0.0.1:${port}/mcp`)).status).toBe(200);
      } finally {
        warn.mockRestore();
        await tools.stop();
      }
    },
  );

  it('serves each key its own tools; a request without X-MCP-Key acts with `key`, one with it with its own', async () => {
    const mock = await start();
    const tools = await startMcpServer({ baseUrl: mock.url, key: mock.mcpKeys.read });
    try {
      expect(tools.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(await names(await tools.client())).toHaveLength(READ_TOOLS.length);
      expect(await names(await tools.client(mock.mcpKeys.write))).toHaveLength(ALL_TOOLS.length);
      const keyless = await jsonRpc(tools.url);
      expect(keyless.status).toBe(200);
      expect((await keyless.json()).result.tools).toHaveLength(READ_TOOLS.length);
      const own = await jsonRpc(tools.url, { 'x-mcp-key': mock.mcpKeys.write });
      expect((await own.json()).result.tools).toHaveLength(ALL_TOOLS.length);
    } finally {
      await tools.stop();
    }
  });

  it('without `key`, a request must bring its own, as with `lmskit mcp --http`', async () => {
    const mock = await start();
    const tools = await startMcpServer({ baseUrl: mock.url });
    try {
      const keyless = await jsonRpc(tools.url);
      expect(keyless.status).toBe(401);
      expect((await keyless.json()).error.message).toBe('Send your MCP key in the X-MCP-Key header.');
      await expect(tools.client()).rejects.toThrow(/client\(\) needs a key/);
      await expect(tools.client(`lmcp_${'A'.repeat(43)}`)).rejects.toThrow(
        /did not accept the key: .*invalid or revoked/,
      );
    } finally {
      await tools.stop();
    }
  });

  it('stop() closes its clients, its port and every connection, its own to the platform too: nothing is left open', async () => {
    const mock = await start();
    const before = await quiet();
    const tools = await startMcpServer({ baseUrl: mock.url });
    const client = await tools.client(mock.mcpKeys.write);
    const found = await client.callTool({ name: 'find_user', arguments: { query: 'ada' } });
    expect(found.isError).toBeUndefined();
    // Its port at least keeps the process alive while it runs.
    expect(tcpHandles()).toBeGreaterThan(before);
    await tools.stop();
    await tools.stop();
    expect(await settled(before)).toBe(before);
    await expect(jsonRpc(tools.url)).rejects.toThrow();
    await expect(tools.client(mock.mcpKeys.read)).rejects.toThrow(/the server is stopped/);
  });

  it('mock.mcpClient: an SDK client per key, driving the platform; mock.stop() stops its tool server too', async () => {
    const before = await quiet();
    const mock = await startMock();
    const writer = await mock.mcpClient(mock.mcpKeys.write);
    const banned = await writer.callTool({ name: 'ban_user', arguments: { userId: 13 } });
    expect(banned.structuredContent).toEqual({ userId: 13, status: 'banned' });
    // A read key is not offered unban_user: refused with the platform's reason, and nothing done.
    const reader = await mock.mcpClient(mock.mcpKeys.read);
    const refused = await reader.callTool({ name: 'unban_user', arguments: { userId: 13 } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain(
      'This call needs the write scope: this key has only the read scope.',
    );
    const user = await reader.callTool({ name: 'get_user', arguments: { userId: 13 } });
    expect(user.structuredContent).toMatchObject({ id: 13, status: 'banned' });
    await mock.stop();
    expect(await settled(before)).toBe(before);
    await expect(mock.mcpClient(mock.mcpKeys.read)).rejects.toThrow(/the mock is stopped/);
  });

  it.each([
    [{}, /baseUrl is required/],
    [{ baseUrl: '127.0.0.1:4010' }, /baseUrl is not an http\(s\) URL: 127\.0\.0\.1:4010/],
    [{ baseUrl: 'http://127.0.0.1:4010', port: 70_000 }, /not a port: 70000/],
    [{ baseUrl: 'http://127.0.0.1:4010', key: 'secret' }, /key is no MCP key/],
    [
      { baseUrl: 'http://127.0.0.1:4010', uploadRoot: '/nonexistent/uploads' },
      /uploadRoot takes a directory/,
    ],
    // An empty root would have been the current directory.
    [{ baseUrl: 'http://127.0.0.1:4010', uploadRoot: '' }, /uploadRoot takes a directory; it is empty/],
    [{ baseUrl: 'http://127.0.0.1:4010', trustProxy: 'loopback,,' }, /trustProxy takes addresses/],
    [{ baseUrl: 'http://127.0.0.1:4010', host: 'a b' }, /not a host name in host or allowedHosts/],
  ])('refuses bad options with a sentence: %j', async (options, message) => {
    await expect(startMcpServer(options as never)).rejects.toThrow(message);
  });

  it('says why when the port is taken', async () => {
    const mock = await start();
    await expect(startMcpServer({ baseUrl: mock.url, port: Number(new URL(mock.url).port) })).rejects.toThrow(
      /startMcpServer: cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/,
    );
  });
});

describe("the guide's runConformance example (docs/guide.md; run as it stands by test/package/outside.test.ts)", () => {
  it('passes against startMock with the tool server started in-process: every MUST ran, MCP checks too', async () => {
    // The guide's code, but for the import of the package by its source.
    const mock = await startMock({
      ai: { generationMinSeconds: 0, generationMaxSeconds: 0 }, // generation jobs end at once
      rateLimit: 0, // the suite would wait out the per-key limit of 120 a minute: a minute, not seconds
    });
    const tools = await startMcpServer({ baseUrl: mock.url });
    const roleKey = async (userId: string) => {
      const { data, error } = await mock.admin.POST('/tenants/{tenantId}/mcp-keys', {
        params: { path: { tenantId: mock.tenantId } },
        body: { userId, scopes: ['read', 'write'] },
      });
      if (!data) throw new Error(`no key for ${userId}: ${error?.error}`);
      return data.key;
    };
    try {
      const report = await runConformance({
        baseUrl: mock.url,
        apiKey: mock.siteApiKey,
        mcpUrl: tools.url,
        mcpKeys: [mock.mcpKeys.read, mock.mcpKeys.write],
        roleKeys: {
          manager: await roleKey('max'),
          author: await roleKey('aria'),
          learner: await roleKey('lena'),
        },
        chainId: 1, // the demo's "Onboarding path", owned by ada, the owner of the demo keys
        expertUserId: 'otto',
        allowWrites: true,
      });
      expect(report.results.filter((r) => r.status !== 'pass' && r.status !== 'skip')).toEqual([]);
      expect(report.outcome).toBe('passed');

      // Only the opt-ins the example does not give are skipped.
      const skipped = report.results.filter((r) => r.status === 'skip');
      expect(skipped.filter((r) => !/^not opted in/.test(r.reason ?? ''))).toEqual([]);
      // The MCP checks ran against the tool server (without mcpUrl each would be incomplete).
      const mcp = report.results.filter((r) => r.id.startsWith('mcp.'));
      expect(mcp.filter((r) => r.status === 'pass').length).toBeGreaterThan(mcp.length / 2);
    } finally {
      await tools.stop();
      await mock.stop();
    }
  }, 180_000); // the whole suite: 8 s quiet, 40 s beside busy processes; guards a hang
});
