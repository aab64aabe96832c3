// End to end (docs/mock.md, Durable state): the real `lmskit mock` process, driven over HTTP as a user
// would — started, written to, killed with SIGKILL, restarted on the same state file — and every
// acknowledged write is still there. Then a torn tail in the state file is reported, not fatal. On the
// way, its /docs/ is served for its own address (docs/adr-0003).
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type RunningProcess, startLmskit } from './process.ts';

const dir = mkdtempSync(join(tmpdir(), 'lmskit-e2e-'));
const stateFile = join(dir, 'state.jsonl');
const running: RunningProcess[] = [];
afterAll(() => {
  for (const p of running) p.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function start(port: number) {
  const p = await startLmskit(
    ['mock', '--port', String(port), '--admin-token', 'e2e-admin-token-16', '--state-file', stateFile],
    /ready/,
  );
  running.push(p);
  return p;
}

describe('lmskit mock, as a process', () => {
  let port = 0;
  let key = '';
  let base = '';
  const v1 = async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const response = await fetch(`${base}/openapi/v1${path}`, {
      method: init.method ?? 'GET',
      headers: {
        'x-api-key': key,
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  it("starts, prints the banner with the site API key, the MCP keys, the demo's MCP access full as the demo's choice (seed 000's default being none) and the admin token, and is healthy", async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const p = await start(port);
    const banner = p.output();
    expect(banner).toContain(
      "MCP access: full, the demo's choice (seed 000's default, for a new tenant, is none)",
    );
    expect(banner).toContain(`${base}/openapi/v1`);
    expect(banner).toContain(`${base}/api/v2`);
    expect(banner).toContain('Bearer e2e-admin-token-16');
    expect(banner).toMatch(/MCP key \(read, ada\): X-MCP-Key lmcp_\S{43}/);
    expect(banner).toMatch(/MCP key \(read\+write, ada\): X-MCP-Key lmcp_\S{43}/);
    key = /X-API-KEY (\S+)/.exec(banner)?.[1] ?? '';
    expect((await fetch(`${base}/__admin/health`)).status).toBe(200);
  });

  it('serves the docs at /docs/ with no build step: built from the contracts (or kept from an earlier build), for this port', async () => {
    expect(running[0]?.output()).toContain(`docs: ${base}/docs/`);
    const first = fetch(`${base}/docs/`);
    // The build runs in a child process: the mock keeps answering meanwhile.
    expect((await fetch(`${base}/__admin/health`)).status).toBe(200);
    const index = await first;
    expect(index.status).toBe(200);
    const home = await index.text();
    expect(home).toContain('<header class="lmskit-header">');
    // The home page names this mock's address, and the console page's screenshots come along.
    expect(home).toContain(`${base}/openapi/v1/courses`);
    const screenshot = /<img src="(screenshots\/[^"]+\.png)"/.exec(
      await (await fetch(`${base}/docs/console.html`)).text(),
    )?.[1];
    const png = await fetch(`${base}/docs/${screenshot}`);
    expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const reference = await (await fetch(`${base}/docs/v1.html`)).text();
    expect(reference).toContain(`<meta name="lmskit-mock" content="live" data-origin="${base}">`);
    expect(reference).toContain(`${base}/openapi/v1/courses`);
  });

  it('keeps every acknowledged write across kill -9 and a restart on the same state file', async () => {
    const created = await v1('/users', {
      method: 'POST',
      json: {
        name: 'Durable',
        email: 'durable@example.test',
        password: 'password1',
        roleAlias: 'learner',
        groups: [3],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(
      (
        await v1(`/users/${id}`, {
          method: 'PATCH',
          json: { email: 'durable2@example.test', occupation: 'Tester' },
        })
      ).status,
    ).toBe(200);
    const group = await v1('/groups', { method: 'POST', json: { name: 'Survivors' } });
    expect((await v1('/courses/12/assignments', { method: 'POST', json: { users: [id] } })).status).toBe(200);
    expect((await v1('/users/blocked', { method: 'POST', json: { id: 'lily' } })).status).toBe(200);

    const [first] = running;
    first?.child.kill('SIGKILL');
    await first?.exited;
    await start(port);

    const assignments = await v1(`/users/${id}/assignments`);
    expect(assignments.status).toBe(200);
    expect(assignments.body.assignments.map((a: any) => a.course.id)).toContain(12);
    const dup = await v1('/users', {
      method: 'POST',
      json: { name: 'Dup', email: 'durable2@example.test', password: 'password1', roleAlias: 'learner' },
    });
    expect(dup.status).toBe(400);
    expect((await v1(`/groups/${group.body.id}/statistics`)).body.group.name).toBe('Survivors');
    expect((await v1('/users/blocked', { method: 'POST', json: { id: 'lily' } })).body.isBanned).toBe(true);
    const stats = await v1('/groups/3/statistics');
    expect(stats.body.usersWithoutActivity.map((u: any) => u.id)).toContain(id);
  });

  it('reports a torn last line of the state file and starts with everything before it', async () => {
    const current = running.at(-1);
    current?.child.kill('SIGKILL');
    await current?.exited;
    appendFileSync(stateFile, '{"t":"createGroup","a":{"tenantId":"demo","inp');
    const p = await start(port);
    expect(p.output()).toMatch(/dropped line \d+, a write cut off before it was answered/);
    expect((await v1('/courses')).status).toBe(200);
    expect((await v1('/users/blocked', { method: 'POST', json: { id: 'lily' } })).body.isBanned).toBe(true);
  });

  it('shuts down cleanly on SIGTERM', async () => {
    const p = running.at(-1);
    p?.child.kill('SIGTERM');
    expect(await p?.exited).toBe(0);
  });
});

describe('flags (docs/mock.md, Options)', () => {
  it("--seed empty starts the tenant at seed 000's default MCP access none, and the banner says so and how to turn it on (000/licence.none)", async () => {
    const p = await startLmskit(['mock', '--port', '0', '--seed', 'empty'], /try: curl/);
    running.push(p);
    expect(p.output()).toContain(
      'MCP access: none, seed 000\'s default: every MCP request gets 403 MCP_LICENSE_DISABLED until PATCH /__admin/tenants/demo {"mcpAccess": "full"}',
    );
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it.each([
    ['--webhook-timeout', '0', /--webhook-timeout takes a whole number of seconds from 1 to 600, not 0/],
    ['--journal-size', 'many', /--journal-size takes a whole number from 1 to 100000, not many/],
  ])('%s %s is one sentence and exit code 2, before anything starts', (flag, value, sentence) => {
    const run = spawnSync(process.execPath, ['bin/lmskit.js', 'mock', '--port', '0', flag, value], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(sentence);
    expect(run.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });
});
