// The real `lmskit mock` serves only requests whose Host names it (docs/mock.md, "Host names"): a page
// of another site whose name was rebound to 127.0.0.1 is, to the browser, of the same origin as the
// mock, but still sends its own name as Host. Every path answers such a request 403 in its API's error
// shape — v1, v2, the admin API, `/`, the docs and the console — and nothing changes; loopback names
// and the --host address are served, and --allowed-hosts adds names.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../../mock/seed/demo.ts';
import { freePort, type RunningProcess, runLmskit, startLmskit } from './process.ts';

const TOKEN = 'e2e-admin-token-0123456789';
const running: RunningProcess[] = [];
afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
});

async function startMock(extra: string[] = []) {
  const port = await freePort();
  const p = await startLmskit(['mock', '--port', String(port), '--admin-token', TOKEN, ...extra], /ready/);
  running.push(p);
  return { port, output: p.output };
}

interface Answer {
  status: number;
  body: any;
}

/** A request to the mock on 127.0.0.1 that names `host` in its Host header (fetch cannot set it). */
function send(
  port: number,
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
): Promise<Answer> {
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: init.method ?? 'GET',
        headers: {
          host,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const NEW_USER = {
  name: 'Rebound',
  email: 'rebound@example.com',
  password: 'rebound-pass-1',
  roleAlias: 'learner',
};

describe('the mock serves only the Host names it knows (DNS rebinding; docs/mock.md, Host names)', () => {
  let port = 0;
  beforeAll(async () => {
    ({ port } = await startMock());
  });

  const admin = { authorization: `Bearer ${TOKEN}` };
  const v1 = { 'x-api-key': DEMO_SITE_API_KEY };
  const v2 = { 'x-mcp-key': demoMcpKey('write') };

  it('Host evil.example is refused 403 on every path, in the API’s error shape, with valid credentials too', async () => {
    const evil = `evil.example:${port}`;
    const shaped = { error: expect.stringMatching(/evil\.example is not served/), code: 'HOST_NOT_ALLOWED' };
    const created = await send(port, evil, '/openapi/v1/users', {
      method: 'POST',
      headers: v1,
      json: NEW_USER,
    });
    expect(created).toEqual({
      status: 403,
      body: { status: 403, message: expect.stringMatching(/evil\.example/) },
    });
    expect(await send(port, evil, '/openapi/v1/courses', { headers: v1 })).toMatchObject({ status: 403 });
    expect(await send(port, evil, '/api/v2/users?query=lena', { headers: v2 })).toEqual({
      status: 403,
      body: shaped,
    });
    expect(await send(port, evil, '/__admin/health')).toEqual({ status: 403, body: shaped });
    expect(await send(port, evil, '/__admin/tenants', { headers: admin })).toEqual({
      status: 403,
      body: shaped,
    });
    for (const path of ['/', '/docs/', '/console/', '/nowhere'])
      expect(await send(port, evil, path), path).toEqual({ status: 403, body: shaped });
    // Nothing was created by the refused write.
    const users = await send(port, `127.0.0.1:${port}`, '/__admin/tenants/demo/users?query=rebound', {
      headers: admin,
    });
    expect(users.status).toBe(200);
    expect(users.body.users).toEqual([]);
  });

  it('a malformed Host is refused too, and not repeated in the answer', async () => {
    const odd = await send(port, 'evil.example/<b>@127.0.0.1', '/__admin/health');
    expect(odd).toEqual({
      status: 403,
      body: { error: expect.stringMatching(/not a host name/), code: 'HOST_NOT_ALLOWED' },
    });
    expect(JSON.stringify(odd.body)).not.toContain('<b>');
  });

  it('loopback names and the address it listens on are served', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'localhost'])
      expect((await send(port, host, '/__admin/health')).status, host).toBe(200);
    expect((await send(port, `localhost:${port}`, '/openapi/v1/courses', { headers: v1 })).status).toBe(200);
  });
});

describe('--allowed-hosts adds names (docs/mock.md, Host names)', () => {
  it('serves the names given besides the loopback ones; others are still refused', async () => {
    const { port } = await startMock(['--allowed-hosts', 'mock.example.test, api.example.test']);
    for (const host of ['mock.example.test', `api.example.test:${port}`, `127.0.0.1:${port}`, 'localhost'])
      expect((await send(port, host, '/__admin/health')).status, host).toBe(200);
    expect((await send(port, 'evil.example', '/__admin/health')).status).toBe(403);
  });

  it('--help lists it; a value that is not a host name ends with one sentence and exit 2', async () => {
    const help = await runLmskit(['mock', '--help']);
    expect(help.code).toBe(0);
    expect(help.output).toMatch(/--allowed-hosts H/);
    const bad = await runLmskit(['mock', '--port', '0', '--allowed-hosts', 'not a host']);
    expect(bad.code).toBe(2);
    expect(bad.output.split('\n')[0]).toMatch(/^not a host name in --host or --allowed-hosts/);
  });
});

describe('the pages a browser opens: Content-Security-Policy with frame-ancestors none, and nosniff (docs/mock.md, Host names and pages)', () => {
  it('/, the console and the docs send both; the console and / allow no inline script at all', async () => {
    const { port } = await startMock();
    const base = `http://127.0.0.1:${port}`;
    const headersOf = async (path: string, accept = 'text/html') => {
      const answer = await fetch(`${base}${path}`, { headers: { accept } });
      await answer.arrayBuffer();
      expect(answer.status, path).toBe(200);
      return {
        policy: answer.headers.get('content-security-policy') ?? '',
        sniff: answer.headers.get('x-content-type-options'),
      };
    };
    for (const path of [
      '/',
      '/console/',
      '/console/console.js',
      '/docs/',
      '/docs/v1.html',
      '/docs/assets/site.css',
    ]) {
      const { policy, sniff } = await headersOf(path);
      expect(policy, path).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
      expect(policy, path).toMatch(/(^|; )default-src 'none'(;|$)/);
      expect(policy, path).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(sniff, path).toBe('nosniff');
    }
    expect((await headersOf('/', 'application/json')).policy).toMatch(/frame-ancestors 'none'/);
    // The reference page's inline scripts (Redoc, inlined for offline use) are allowed by their hashes.
    expect((await headersOf('/docs/v1.html')).policy).toMatch(
      /script-src 'self' 'sha256-[^']+' 'sha256-[^']+'/,
    );
  }, 120_000);
});
