// The request journal over HTTP (openapi/admin, tag Journal): what each client sent and what the mock
// answered, filtered, in full by id, as HAR, bounded. Every answer of the journal itself is checked
// against the admin contract by the harness.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOL_HEADER, MCP_USER_AGENT } from '../../mcp-server/backend.ts';
import { VirtualClock } from '../../mock/domain/clock.ts';
import { Platform } from '../../mock/domain/platform.ts';
import { BODY_LIMIT, RequestJournal } from '../../mock/http/journal.ts';
import { loadSeed } from '../../mock/seed/index.ts';
import { startServer } from '../../mock/server.ts';
import { loadSpecs } from '../../mock/specs.ts';
import { ADMIN_TOKEN, DEMO_SITE_API_KEY, type Harness, READ_KEY, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const journal = async (query = '') => {
  const { status, body } = await h.admin(`/journal${query}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return body as { requests: any[]; size: number; held: number };
};
const detail = async (id: string) => (await h.admin(`/journal/${id}`)).body;

describe('what a client sent and what the mock answered (admin API, Journal)', () => {
  it('keeps the URL with its query, the operation, the caller, the masked key and the answer', async () => {
    await h.v1('/courses?limit=3');
    const [entry] = (await journal('?api=v1&limit=1')).requests;
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/openapi/v1/courses',
      url: '/openapi/v1/courses?limit=3',
      status: 200,
      api: 'v1',
      operationId: 'listCourses',
      caller: { tenantId: 'demo', keyId: null, userId: null },
      verdict: { request: 'valid', response: 'valid', errors: [] },
    });
    expect(entry.id).toMatch(/^req_\d+$/);
    expect(Date.parse(entry.virtualAt)).not.toBeNaN();
    const full = await detail(entry.id);
    expect(full.entry).toEqual(entry);
    expect(full.request.headers['x-api-key']).toBe(`••••${DEMO_SITE_API_KEY.slice(-4)}`);
    expect(JSON.stringify(full)).not.toContain(DEMO_SITE_API_KEY);
    expect(full.response.headers['content-type']).toContain('application/json');
    expect(Array.isArray(full.response.body) || typeof full.response.body === 'object').toBe(true);
    expect(full.response.bodySize).toBeGreaterThan(0);
  });

  it('keeps a JSON request body and the v2 caller (tenant, key id, user) of a refused write', async () => {
    const refused = await h.v2('/users/banned', { method: 'POST', json: { userId: 13 }, key: READ_KEY });
    expect(refused.status).toBe(403);
    const [entry] = (await journal('?api=v2&method=POST&limit=1')).requests;
    const readKeyId = [...h.platform.tenant('demo').mcpKeys.values()].find((k) =>
      READ_KEY.startsWith(k.prefix),
    )?.id;
    expect(entry).toMatchObject({
      path: '/api/v2/users/banned',
      status: 403,
      caller: { tenantId: 'demo', keyId: readKeyId, userId: expect.any(String) },
      verdict: { request: 'valid', response: 'valid' },
    });
    const full = await detail(entry.id);
    expect(full.request.body).toEqual({ userId: 13 });
    expect(full.request.headers['x-mcp-key']).toBe(`••••${READ_KEY.slice(-4)}`);
    expect(full.response.body).toEqual(refused.body);
  });

  it('gives the contract router’s reasons when a request departs from the contract', async () => {
    const bad = await h.v1('/users', { method: 'POST', json: { email: 'not-an-address' } });
    expect(bad.status).toBe(400);
    const [entry] = (await journal('?operationId=createUser&limit=1')).requests;
    expect(entry.verdict.request).toBe('invalid');
    expect(entry.verdict.errors.length).toBeGreaterThan(0);
    expect(entry.verdict.errors.join(' ')).toMatch(/body/);
  });

  it('summarises an upload (name, type, size) instead of keeping the file', async () => {
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([4, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(webp)]), 'diagram.webp');
    await h.v2('/chat/source-materials/upload', { method: 'POST', body: form });
    const [entry] = (await journal('?path=/chat/source-materials/upload&limit=1')).requests;
    const full = await detail(entry.id);
    expect(full.request.body).toEqual({
      upload: { name: 'diagram.webp', type: expect.any(String), size: webp.length },
    });
    expect(full.request.bodyNote).toMatch(/upload/);
  });

  it(`cuts a body over ${BODY_LIMIT} bytes and says so`, async () => {
    const big = { firstName: 'x'.repeat(BODY_LIMIT + 100) };
    await h.v1('/users', { method: 'POST', json: big });
    const [entry] = (await journal('?operationId=createUser&limit=1')).requests;
    const full = await detail(entry.id);
    expect(typeof full.request.body).toBe('string');
    expect(full.request.body.length).toBe(BODY_LIMIT);
    expect(full.request.bodyNote).toMatch(/^cut at 32768 of \d+ bytes$/);
  });

  it(`cuts an answer over ${BODY_LIMIT} bytes written in pieces, and counts every byte`, async () => {
    const journal = new RequestJournal({ specs: loadSpecs(), now: () => 0, version: 'test' });
    const app = express();
    app.use(journal.record);
    // Three-byte characters, so the cut falls inside a piece and inside a character.
    const piece = '€'.repeat(5000);
    app.get('/big', (_req, res) => {
      res.type('text/plain');
      for (let i = 0; i < 4; i++) res.write(piece);
      res.end(Buffer.from(piece));
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/big`)).text();
      const [entry] = await journal.list({}, 1);
      const full = await journal.detail(entry?.id ?? '');
      const total = 5 * Buffer.byteLength(piece);
      expect(full?.response.bodySize).toBe(total);
      expect(full?.response.bodyNote).toBe(`cut at ${BODY_LIMIT} of ${total} bytes`);
      expect(String(full?.response.body).startsWith('€€€')).toBe(true);
    } finally {
      server.close();
    }
  });

  it('names the caller a key was at the time of the request, even once the key is revoked', async () => {
    const { id, key } = await h.newKey(1, ['read']);
    expect((await h.v2('/users?query=lena', { key })).status).toBe(200);
    const [entry] = (await journal('?api=v2&limit=1')).requests;
    expect(entry.caller).toEqual({ tenantId: 'demo', keyId: id, userId: expect.any(String) });
    const revoked = await h.admin(`/tenants/demo/mcp-keys/${id}`, { method: 'DELETE' });
    expect(revoked.status).toBeLessThan(300);
    expect((await detail(entry.id)).entry.caller).toEqual(entry.caller);
  });

  it('filters by api, method, status range, path, operation and caller, newest first', async () => {
    await h.v1('/courses/2');
    await h.v1('/courses/9999');
    await h.v2('/users?query=lena');
    const v1 = (await journal('?api=v1')).requests;
    expect(v1.length).toBeGreaterThan(0);
    expect(v1.every((e) => e.api === 'v1')).toBe(true);
    expect(v1[0].path).toBe('/openapi/v1/courses/9999');
    expect(v1[1].path).toBe('/openapi/v1/courses/2');
    const errors = (await journal('?minStatus=400&maxStatus=499')).requests;
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.status >= 400 && e.status <= 499)).toBe(true);
    expect((await journal('?path=/courses/99')).requests.map((e) => e.path)).toContain(
      '/openapi/v1/courses/9999',
    );
    expect(
      (await journal('?operationId=getCourse')).requests.every((e) => e.operationId === 'getCourse'),
    ).toBe(true);
    const mine = (await journal('?caller=demo')).requests;
    expect(mine.some((e) => e.api === 'v2') && mine.some((e) => e.api === 'v1')).toBe(true);
    expect((await journal('?caller=no-such-tenant')).requests).toEqual([]);
    const times = v1.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('tells the MCP tool server’s requests (its User-Agent) from direct v2 traffic as API mcp', async () => {
    await h.v2('/users?query=lena', { headers: { 'user-agent': MCP_USER_AGENT } });
    const [mcp] = (await journal('?api=mcp&limit=1')).requests;
    expect(mcp).toMatchObject({
      api: 'mcp',
      url: '/api/v2/users?query=lena',
      operationId: expect.any(String),
    });
    expect((await journal('?api=v2')).requests.map((e) => e.id)).not.toContain(mcp.id);
  });

  it('does not record its own reads, so a console polling it leaves it as it was', async () => {
    const before = await journal();
    await journal();
    await journal('?api=v1');
    const after = await journal();
    expect(after.requests[0].id).toBe(before.requests[0].id);
  });

  it('refuses bad filters with 400 in the admin error shape', async () => {
    for (const query of ['?minStatus=abc', '?api=v9', '?limit=0', '?method=FETCH']) {
      const { status, body } = await h.admin(`/journal${query}`);
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String) });
    }
    const missing = await h.admin('/journal/req_999999999');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });

  it('exports HAR 1.2 that keeps the filters, oldest first, with masked keys', async () => {
    await h.v1('/courses/2?fields=id');
    const { status, body, headers } = await h.admin('/journal/har?api=v1&limit=2');
    expect(status).toBe(200);
    expect(headers.get('content-disposition')).toContain('.har');
    expect(body.log.version).toBe('1.2');
    expect(body.log.entries).toHaveLength(2);
    const last = body.log.entries[1];
    expect(last.request.url).toBe(`${h.base}/openapi/v1/courses/2?fields=id`);
    expect(last.request.queryString).toEqual([{ name: 'fields', value: 'id' }]);
    expect(last.request.headers).toContainEqual({
      name: 'x-api-key',
      value: `••••${DEMO_SITE_API_KEY.slice(-4)}`,
    });
    expect(last.response.status).toBe(200);
    expect(JSON.parse(last.response.content.text)).toMatchObject({ id: 2 });
    expect(Date.parse(body.log.entries[0].startedDateTime)).toBeLessThanOrEqual(
      Date.parse(last.startedDateTime),
    );
  });
});

describe('secrets wherever a request carries them (docs/mock.md, Secrets in the journal)', () => {
  it('masks a credential sent in the query string, by its name, as a header is; other parameters stay', async () => {
    await h.v2(`/users?query=lena&key=${READ_KEY}`);
    const [entry] = (await journal('?api=v2&limit=1')).requests;
    expect(entry.url).toBe(`/api/v2/users?query=lena&key=••••${READ_KEY.slice(-4)}`);
    const har = JSON.stringify((await h.admin('/journal/har?limit=1')).body);
    expect(har).not.toContain(READ_KEY);
  });

  it('masks a password in a body over 32 KB, its name escaped in the text as sent', async () => {
    const password = 'escaped-name-password';
    const padding = 'p'.repeat(BODY_LIMIT);
    // `\u0077` is `w`: JSON's parser reads "password", a search of the text for "password" does not.
    const text = `{"name":"Ines","email":"big-body@example.com","pass\\u0077ord":"${password}","roleAlias":"learner","bio":"${padding}"}`;
    expect(JSON.parse(text).password).toBe(password);
    const sent = await h.v1('/users', {
      method: 'POST',
      body: text,
      headers: { 'content-type': 'application/json' },
    });
    const [entry] = (await journal('?operationId=createUser&limit=1&full=true')).requests;
    expect(entry.status).toBe(sent.status);
    expect(entry.request.bodyNote).toMatch(/^cut at 32768 of \d+ bytes$/);
    expect(JSON.stringify(entry)).not.toContain(password);
    expect(JSON.stringify(await detail(entry.id))).not.toContain(password);
  });

  it("masks a webhook receiver's secret in a snapshot read and written through the admin API", async () => {
    const secret = 'journal-snapshot-signing-secret';
    await h.admin('/tenants/demo/webhooks', {
      method: 'POST',
      json: { url: 'http://127.0.0.1:9/hook', secret },
    });
    const snapshot = await h.admin('/snapshot');
    expect(JSON.stringify(snapshot.body)).toContain(secret);
    expect((await h.admin('/snapshot', { method: 'PUT', json: snapshot.body })).status).toBe(200);
    const entries = (await journal('?api=admin&limit=2&full=true')).requests;
    expect(entries.map((e) => `${e.method} ${e.path}`)).toEqual([
      'PUT /__admin/snapshot',
      'GET /__admin/snapshot',
    ]);
    expect(JSON.stringify(entries)).not.toContain(secret);
    for (const e of entries) expect(JSON.stringify(await detail(e.id))).not.toContain(secret);
  });
});

describe('verifying what a client sent (admin API, Journal: full entries, filters, clear)', () => {
  it('gives each request in full with full=true, and keeps the list light without it', async () => {
    const email = 'full-entry@example.com';
    const created = await h.v1('/users', {
      method: 'POST',
      json: { name: 'Ines', email, password: 'secret123', roleAlias: 'learner' },
    });
    expect(created.status).toBe(201);
    const [light] = (await journal('?operationId=createUser&limit=1')).requests;
    expect(light).not.toHaveProperty('request');
    expect(light).not.toHaveProperty('response');
    const [full] = (await journal('?operationId=createUser&limit=1&full=true')).requests;
    const { request, response, ...entry } = full;
    expect(entry).toEqual(light);
    expect(request.body).toMatchObject({ email, roleAlias: 'learner' });
    expect(response.body).toMatchObject({ email });
    expect(response.bodyNote).toBeNull();
    // Full entries stay masked: the password and the site key never appear.
    expect(request.body.password).toBe('••••');
    expect(request.headers['x-api-key']).toBe(`••••${DEMO_SITE_API_KEY.slice(-4)}`);
    expect(JSON.stringify(full)).not.toContain('secret123');
    expect(JSON.stringify(full)).not.toContain(DEMO_SITE_API_KEY);
  });

  it('filters by exact status, by MCP tool (X-MCP-Tool) and by a JSON body the request body matches', async () => {
    await h.v1('/courses/9998');
    const missing = (await journal('?status=404')).requests;
    expect(missing.length).toBeGreaterThan(0);
    expect(missing.every((e) => e.status === 404)).toBe(true);

    await h.v2('/users/banned', {
      method: 'POST',
      json: { userId: 13 },
      key: READ_KEY,
      headers: { 'user-agent': MCP_USER_AGENT, [MCP_TOOL_HEADER]: 'ban_user' },
    });
    const [banned] = (await journal('?tool=ban_user')).requests;
    expect(banned).toMatchObject({ api: 'mcp', tool: 'ban_user', operationId: 'banUser', faultId: null });
    expect((await journal('?tool=unban_user')).requests.map((e) => e.id)).not.toContain(banned.id);

    const q = (body: unknown) => `?body=${encodeURIComponent(JSON.stringify(body))}`;
    await h.v1('/users', {
      method: 'POST',
      json: {
        name: 'Body Match',
        email: 'body-match@example.com',
        password: 'secret123',
        roleAlias: 'learner',
        courses: [1, 2],
      },
    });
    const [byEmail] = (await journal(q({ email: 'body-match@example.com' }))).requests;
    expect(byEmail.operationId).toBe('createUser');
    expect((await journal(q({ courses: [1, 2] }))).requests.map((e) => e.id)).toContain(byEmail.id);
    // Arrays match item by item, the whole array; a body is compared as shown, its secrets masked.
    expect((await journal(q({ courses: [1] }))).requests.map((e) => e.id)).not.toContain(byEmail.id);
    expect((await journal(q({ email: 'body-match@example.com', password: 'secret123' }))).requests).toEqual(
      [],
    );
    expect((await journal(q({ email: 'body-match@example.com', password: '••••' }))).requests[0].id).toBe(
      byEmail.id,
    );
    // Requests without a JSON body never match, not even the empty pattern.
    expect((await journal(`${q({})}&method=GET`)).requests).toEqual([]);
    const har = await h.admin(`/journal/har${q({ email: 'body-match@example.com' })}`);
    expect(har.body.log.entries).toHaveLength(1);
  });

  it('refuses a body filter that is not JSON, and an unknown filter, naming it (a typo never passes)', async () => {
    const notJson = await h.admin('/journal?body=%7Bemail');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: expect.stringContaining('query.body'),
    });
    for (const path of ['/journal', '/journal/har']) {
      const typo = await h.admin(`${path}?operation=createUser`);
      expect(typo.status).toBe(400);
      expect(typo.body.code).toBe('VALIDATION_ERROR');
      expect(typo.body.error).toContain('query.operation');
      expect(typo.body.error).toContain('operationId');
    }
    // Every admin operation with filters or paging holds its query to them.
    const users = await h.admin('/tenants/demo/users?serach=lena');
    expect(users.status).toBe(400);
    expect(users.body.error).toContain('query.serach');
    // The refusal is judged in the journal like any invalid input.
    const [refused] = (await journal('?path=/__admin/tenants/demo/users&status=400&limit=1')).requests;
    expect(refused.verdict.request).toBe('invalid');
    // Without the admin token, the token is what is refused.
    const anonymous = await fetch(`${h.base}/__admin/journal?operation=x`);
    expect(anonymous.status).toBe(401);
  });

  it('is cleared by DELETE, which it does not record; ids go on counting', async () => {
    await h.v1('/courses/3');
    const [before] = (await journal('?limit=1')).requests;
    const { status, body } = await h.admin('/journal', { method: 'DELETE' });
    expect(status).toBe(200);
    expect(body).toEqual({ cleared: expect.any(Number), size: 1000 });
    expect(body.cleared).toBeGreaterThan(0);
    expect(await journal()).toMatchObject({ requests: [], held: 0 });
    expect((await detail(before.id)).code).toBe('NOT_FOUND');
    await h.v1('/courses/4');
    const after = await journal();
    expect(after.held).toBe(1);
    expect(Number(after.requests[0].id.slice(4))).toBeGreaterThan(Number(before.id.slice(4)));
  });

  it('refuses a filter on DELETE with 400 and clears nothing: it takes none (admin API, clearRequestJournal)', async () => {
    await h.v1('/courses/3');
    const held = (await journal()).held;
    const { status, body } = await h.admin('/journal?api=v1', { method: 'DELETE' });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('api') });
    expect((await journal()).held).toBeGreaterThanOrEqual(held);
  });

  it('leaves out the docs site, the console and its admin calls, keeping the clients’ requests', async () => {
    await h.admin('/journal', { method: 'DELETE' });
    // (The console's own files, /console/…, are left out the same way; fetching them here would build it.)
    for (const path of ['/docs/assets/search.js', '/docs/', '/docs', '/favicon.ico'])
      await fetch(`${h.base}${path}`);
    await h.admin('/clock', { headers: { 'x-lmskit-console': '1' } });
    await h.admin('/clock');
    await h.v1('/courses/5');
    const paths = (await journal()).requests.map((e) => e.path);
    expect(paths).toEqual(['/openapi/v1/courses/5', '/__admin/clock']);
  });

  it('names the fault that answered a request (faultId), and the operation it was for', async () => {
    const fault = await h.admin('/faults', {
      method: 'POST',
      json: { method: 'GET', path: '/openapi/v1/courses/6', status: 503 },
    });
    expect((await h.v1('/courses/6')).status).toBe(503);
    expect((await h.v1('/courses/6')).status).toBe(200);
    const [real, faulted] = (await journal('?path=/openapi/v1/courses/6&limit=2')).requests;
    // The operation is named even though the fault answered before any router; the answer is the
    // test's own, so the contract has no verdict on it.
    expect(faulted).toMatchObject({ status: 503, faultId: fault.body.id, operationId: 'getCourse' });
    expect(faulted.verdict).toEqual({ request: 'unchecked', response: 'unchecked', errors: [] });
    expect(real).toMatchObject({ status: 200, faultId: null });
  });
});

describe('bounds and verdicts', () => {
  it('holds only the last journalSize requests', async () => {
    const state = loadSeed('demo');
    const platform = new Platform(new VirtualClock({ start: state.now, frozen: true }), loadSeed);
    platform.load(state);
    const running = await startServer({ platform, adminToken: ADMIN_TOKEN, journalSize: 3, webhooks: false });
    const base = running.url;
    try {
      for (const id of [1, 2, 3, 4, 5])
        await fetch(`${base}/openapi/v1/courses/${id}`, { headers: { 'x-api-key': DEMO_SITE_API_KEY } });
      const response = await fetch(`${base}/__admin/journal`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const body = await response.json();
      expect(body).toMatchObject({ size: 3, held: 3 });
      expect(body.requests.map((e: { path: string }) => e.path)).toEqual([
        '/openapi/v1/courses/5',
        '/openapi/v1/courses/4',
        '/openapi/v1/courses/3',
      ]);
    } finally {
      await running.close();
    }
  });

  it('judges an answer that departs from its operation’s documented schema as invalid, naming where', async () => {
    // A stand-in handler that answers getCourse with a body the v1 contract does not allow.
    const journal = new RequestJournal({ specs: loadSpecs(), now: () => 0, version: 'test' });
    const app = express();
    app.use(journal.record);
    app.get('/openapi/v1/courses/:id', (_req, res) => {
      res.locals.operationId = 'getCourse';
      res.json({ id: 'not a number' });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi/v1/courses/1`);
      const [entry] = await journal.list({}, 1);
      expect(entry?.verdict.request).toBe('valid');
      expect(entry?.verdict.response).toBe('invalid');
      expect(entry?.verdict.errors.some((e) => e.startsWith('answer '))).toBe(true);
    } finally {
      server.close();
    }
  });
});
