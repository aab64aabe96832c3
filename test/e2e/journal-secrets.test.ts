// The request journal of the real `lmskit mock` (docs/mock.md, "Secrets in the journal"; docs/console.md,
// Requests): secrets are masked wherever it records them — its list and detail, its HAR export and the
// console's "Copy as curl" — the fields the contracts mark as secret (user passwords of v1 create and
// PATCH, a webhook receiver's signing secret, a tenant's site API key, the key in the answer that
// creates an MCP key) and every header whose name says token, secret, auth or key. And every request
// the journal holds exports, whatever its request-target was.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { absoluteUrl, curlOf } from '../../console/src/curl.ts';
import { DEMO_SITE_API_KEY } from '../../mock/seed/demo.ts';
import { client, freePort, type RunningProcess, startLmskit } from './process.ts';

const TOKEN = 'e2e-admin-token-0123456789';
let mock: RunningProcess;
let port = 0;
let base = '';
beforeAll(async () => {
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  mock = await startLmskit(
    ['mock', '--port', String(port), '--admin-token', TOKEN, '--rate-limit', '0'],
    /ready/,
  );
});
afterAll(async () => {
  mock.child.kill('SIGKILL');
  await mock.exited;
});

const admin = () => client(`${base}/__admin`, { authorization: `Bearer ${TOKEN}` });

/** Everything the journal lets a reader see: the list, each request in full, the HAR, "Copy as curl". */
async function everythingShown(): Promise<{ text: string; details: any[]; har: any }> {
  const list = await admin()('/journal?limit=500');
  expect(list.status).toBe(200);
  const details = [];
  for (const entry of list.body.requests) {
    const detail = await admin()(`/journal/${entry.id}`);
    expect(detail.status).toBe(200);
    details.push(detail.body);
  }
  const har = await admin()('/journal/har?limit=500');
  expect(har.status).toBe(200);
  const curls = details.map((d) => curlOf(d, base));
  return { text: JSON.stringify([list.body, details, har.body, curls]), details, har: har.body };
}

describe('secrets are masked wherever the journal records them (docs/mock.md, Secrets in the journal)', () => {
  const PASSWORD = 'Created-Passw0rd-4711';
  const NEW_PASSWORD = 'Patched-Passw0rd-0815';
  const SIGNING_SECRET = 'receiver-signing-secret-31337';
  const SITE_KEY = 'other_tenant_site_key_5f2a9c1e7b';
  const HEADERS = {
    'x-auth-token': 'x-auth-token-value-8d1f3e2a',
    'proxy-authorization': 'Basic cHJveHk6cHJveHktcGFzc3dvcmQ=',
    'x-session-secret': 'short-secret',
    'x-client-key': 'client-key-value-a7c4e9b2',
  };
  let mcpKey = '';

  beforeAll(async () => {
    const v1 = client(`${base}/openapi/v1`, { 'x-api-key': DEMO_SITE_API_KEY });
    const created = await v1('/users', {
      method: 'POST',
      json: { name: 'Masked', email: 'masked@example.com', password: PASSWORD, roleAlias: 'learner' },
    });
    expect(created.status).toBe(201);
    const patched = await v1(`/users/${created.body.id}`, {
      method: 'PATCH',
      json: { email: 'masked@example.com', password: NEW_PASSWORD },
    });
    expect(patched.status).toBe(200);
    // A refused create keeps its body in the journal too: the password there is masked as well.
    expect(
      (await v1('/users', { method: 'POST', json: { name: 'x', email: 'bad', password: PASSWORD } })).status,
    ).toBe(400);
    const key = await admin()('/tenants/demo/mcp-keys', {
      method: 'POST',
      json: { userId: 1, scopes: ['read'] },
    });
    expect(key.status).toBe(201);
    mcpKey = key.body.key;
    const receiver = await admin()('/tenants/demo/webhooks', {
      method: 'POST',
      json: { url: 'http://127.0.0.1:9/hooks', secret: SIGNING_SECRET, events: ['course.published'] },
    });
    expect(receiver.status).toBe(201);
    const tenant = await admin()('/tenants', {
      method: 'POST',
      json: { id: 'masked', siteApiKey: SITE_KEY },
    });
    expect(tenant.status).toBe(201);
    expect(
      (await fetch(`${base}/openapi/v1/courses`, { headers: { 'x-api-key': DEMO_SITE_API_KEY, ...HEADERS } }))
        .status,
    ).toBe(200);
  });

  it('no password, signing secret, site key, new MCP key or auth-like header appears in the list, a detail, the HAR or a curl command', async () => {
    const { text } = await everythingShown();
    for (const secret of [
      PASSWORD,
      NEW_PASSWORD,
      SIGNING_SECRET,
      SITE_KEY,
      mcpKey,
      ...Object.values(HEADERS),
    ])
      expect(text.includes(secret), secret).toBe(false);
  });

  it('masks by the contracts: the fields stay, their values are ••••, a long key keeps its last 4 characters', async () => {
    const { details } = await everythingShown();
    const of = (method: string, path: string) =>
      details.filter((d) => d.entry.method === method && d.entry.path === path);
    const [refused, create] = of('POST', '/openapi/v1/users');
    expect(create.request.body).toMatchObject({ name: 'Masked', password: '••••' });
    expect(refused.request.body).toMatchObject({ email: 'bad', password: '••••' });
    expect(details.find((d) => d.entry.method === 'PATCH').request.body).toEqual({
      email: 'masked@example.com',
      password: '••••',
    });
    const [key] = of('POST', '/__admin/tenants/demo/mcp-keys');
    expect(key.response.body).toMatchObject({ key: `••••${mcpKey.slice(-4)}`, scopes: ['read'] });
    const [receiver] = of('POST', '/__admin/tenants/demo/webhooks');
    expect(receiver.request.body).toMatchObject({ url: 'http://127.0.0.1:9/hooks', secret: '••••' });
    const [tenant] = of('POST', '/__admin/tenants');
    expect(tenant.request.body).toEqual({ id: 'masked', siteApiKey: `••••${SITE_KEY.slice(-4)}` });
    expect(tenant.response.body.siteApiKey).toBe(`••••${SITE_KEY.slice(-4)}`);
    const [courses] = of('GET', '/openapi/v1/courses');
    expect(courses.request.headers).toMatchObject({
      'x-auth-token': `••••${HEADERS['x-auth-token'].slice(-4)}`,
      'proxy-authorization': `••••${HEADERS['proxy-authorization'].slice(-4)}`,
      'x-session-secret': '••••',
      'x-client-key': `••••${HEADERS['x-client-key'].slice(-4)}`,
      'x-api-key': `••••${DEMO_SITE_API_KEY.slice(-4)}`,
    });
  });
});

/** Sends raw bytes and resolves with the answer's status line once the mock has answered. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (c) => (out += c));
    socket.on('error', reject);
    socket.on('close', () => resolve(out.split('\r\n')[0] ?? ''));
    socket.end(text);
  });
}

describe('every journalled request exports (docs/mock.md, Secrets in the journal; the console’s Copy as curl)', () => {
  it('after odd request-targets the HAR is still a 200 naming each, and Copy as curl works for every request', async () => {
    const targets = [
      'http://exa%mple/',
      '//exa%mple/x?a=1',
      'http://[::1/',
      'http://evil.example/openapi/v1/courses?x=1',
    ];
    for (const target of targets)
      expect(
        await raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
      ).toMatch(/^HTTP\/1\.1 [45]\d\d /);
    const { details, har } = await everythingShown();
    expect(har.log.entries.length).toBe(details.length);
    for (const entry of har.log.entries) expect(new URL(entry.request.url).origin).toBe(base);
    const urls = har.log.entries.map((e: any) => e.request.url);
    expect(urls).toContain(`${base}/`);
    expect(urls).toContain(`${base}//exa%mple/x?a=1`);
    expect(urls).toContain(`${base}/openapi/v1/courses?x=1`);
    for (const detail of details) expect(curlOf(detail, base)).toMatch(/^curl -X [A-Z]+ '/);
    expect(absoluteUrl('//exa%mple/x', base)).toBe(`${base}//exa%mple/x`);
  });
});
