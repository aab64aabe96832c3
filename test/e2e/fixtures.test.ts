// `lmskit mock --fixtures FILE` and `--ai-seconds N` through the real process (docs/mock.md, Fixtures
// and Options): the mock starts from the file's tenants instead of a seed; a problem in the file is
// one sentence naming the entry and field, and exit code 2; the fixtures are the state of a fresh
// start, kept by a state file like any state, and a load through the admin API survives `kill -9`;
// `--ai-seconds` gives every tenant of the seed its generation time, after a reset too.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { client, freePort, type RunningProcess, runLmskit, startLmskit } from './process.ts';

const EXAMPLE = 'docs/fixtures-example.yaml';
const ACME = 'acme_site_key_0123456789abcdef';
const ACME_WRITE = 'lmcp_fixture-key-ada-read-write-0000000000000000';
const TOKEN = 'fixtures-test-admin-token';

const dir = mkdtempSync(join(tmpdir(), 'lmskit-fixtures-e2e-'));
const running: RunningProcess[] = [];
afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  rmSync(dir, { recursive: true, force: true });
});

async function mock(args: string[]) {
  const port = await freePort();
  const p = await startLmskit(['mock', '--port', String(port), '--admin-token', TOKEN, ...args], /try: curl/);
  running.push(p);
  const base = `http://127.0.0.1:${port}`;
  return {
    p,
    v1: client(`${base}/openapi/v1`, { 'x-api-key': ACME }),
    v2: (key: string) => client(`${base}/api/v2`, { 'x-mcp-key': key }),
    admin: client(`${base}/__admin`, { authorization: `Bearer ${TOKEN}` }),
  };
}

/** A generation job's status when polled once, the clock frozen. */
async function generation(v2: ReturnType<typeof client>) {
  const job = await v2('/ai/courses/generate', { method: 'POST', json: { prompt: 'Fire safety' } });
  expect(job.status).toBe(202);
  return (await v2(`/ai/courses/generate/${job.body.jobId}`)).body.status;
}

const stop = async (p: RunningProcess, signal: NodeJS.Signals = 'SIGTERM') => {
  p.child.kill(signal);
  await p.exited;
};

describe('lmskit mock --fixtures FILE', () => {
  it('starts from the tenants of the file: its site key in the banner, its courses, its keys, its AI settings', async () => {
    const { p, v1, v2 } = await mock(['--fixtures', EXAMPLE, '--frozen-clock']);
    expect(p.output()).toContain(`tenant acme: X-API-KEY ${ACME}`);
    expect(p.output()).toContain(`fixtures: the MCP keys are those ${EXAMPLE} gives`);
    expect((await v1('/courses')).body.totalCount).toBe(3);
    expect((await v2(ACME_WRITE)('/mcp/capabilities')).body).toMatchObject({ user: { name: 'Ada Admin' } });
    expect(await generation(v2(ACME_WRITE))).toBe('completed');
    await stop(p);
  });

  it('goes back to the fixtures on a reset that names no seed, and across a restart with its state file (docs/mock.md, Reset)', async () => {
    const stateFile = join(dir, 'reset.jsonl');
    const first = await mock(['--fixtures', EXAMPLE, '--frozen-clock', '--state-file', stateFile]);
    const created = await first.v1('/groups', { method: 'POST', json: { name: 'Gone after the reset' } });
    expect(created.status).toBe(201);
    const reset = await first.admin('/reset', { method: 'POST', json: {} });
    expect(reset.body).toMatchObject({ seed: 'fixtures', reset: expect.arrayContaining(['state']) });
    expect((await first.v1(`/groups/${created.body.id}/statistics`)).status).toBe(404);
    expect((await first.v1('/courses')).body.totalCount).toBe(3);
    await stop(first.p, 'SIGKILL');
    // Replayed from the state file alone (no --fixtures): the reset's fixtures are in its journal.
    const again = await mock(['--frozen-clock', '--state-file', stateFile]);
    expect((await again.v1('/courses')).body.totalCount).toBe(3);
    expect((await again.v1(`/groups/${created.body.id}/statistics`)).status).toBe(404);
    await stop(again.p);
  });

  it('names the entry and field of a problem in one sentence, and exits 2', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(
      bad,
      [
        'tenants:',
        '  - id: acme',
        '    users:',
        '      - { id: ana, name: Ana, email: ana@acme.example, role: learner }',
        '      - { id: ben, name: Ben, email: ANA@acme.example, role: learner }',
        '',
      ].join('\n'),
    );
    const refused = await runLmskit(['mock', '--port', '0', '--fixtures', bad], {}, { killAfterMs: 30_000 });
    expect(refused.code).toBe(2);
    expect(refused.output.trim()).toBe(
      `lmskit mock: --fixtures ${bad}: tenants[0].users[1].email: already used by tenants[0].users[0]`,
    );
    const missing = await runLmskit(
      ['mock', '--port', '0', '--fixtures', join(dir, 'none.yaml')],
      {},
      { killAfterMs: 30_000 },
    );
    expect(missing).toEqual({
      code: 2,
      output: `lmskit mock: --fixtures ${join(dir, 'none.yaml')}: no such file\n`,
    });
    const both = await runLmskit(
      ['mock', '--port', '0', '--fixtures', EXAMPLE, '--seed', 'empty'],
      {},
      { killAfterMs: 30_000 },
    );
    expect(both.code).toBe(2);
    expect(both.output).toMatch(
      /^--fixtures gives the state to start from, as --seed and --seed-scale do: give one of them\n/,
    );
  });

  it('is the state of a fresh start, kept by a state file; a load through the admin API survives kill -9', async () => {
    const state = join(dir, 'state.jsonl');
    const first = await mock(['--fixtures', EXAMPLE, '--state-file', state]);
    expect((await first.v1('/courses')).body.totalCount).toBe(3);
    await stop(first.p);

    // The file holds a state now: the fixtures given again are not loaded over it, and the mock says so.
    const second = await mock(['--fixtures', EXAMPLE, '--state-file', state]);
    expect(second.p.output()).toContain(
      `lmskit mock: --fixtures ${EXAMPLE} not loaded: the state file holds a state already (POST /__admin/fixtures loads them into it)`,
    );
    expect(second.p.output()).not.toContain('fixtures: the MCP keys are those');
    const fixture = {
      tenants: [
        {
          id: 'acme',
          siteApiKey: ACME,
          courses: [{ name: 'Only one' }],
          users: [{ id: 'ada', name: 'Ada', email: 'ada@acme.example', role: 'admin' }],
        },
      ],
    };
    expect((await second.admin('/fixtures', { method: 'POST', json: fixture })).status).toBe(200);
    await stop(second.p, 'SIGKILL');

    const third = await mock(['--state-file', state]);
    expect((await third.v1('/courses')).body).toMatchObject({
      totalCount: 1,
      courses: [{ name: 'Only one' }],
    });
    await stop(third.p);
  });
});

describe('lmskit mock --ai-seconds N', () => {
  it('gives every tenant of the seed its generation time, after a reset too', async () => {
    const { p, v2, admin } = await mock(['--ai-seconds', '0', '--frozen-clock']);
    const write = /MCP key \(read\+write, ada\): X-MCP-Key (\S+)/.exec(p.output())?.[1] ?? '';
    expect(await generation(v2(write))).toBe('completed');
    expect((await admin('/reset', { method: 'POST', json: {} })).status).toBe(200);
    expect((await admin('/tenants/demo/ai')).body).toMatchObject({
      generationMinSeconds: 0,
      generationMaxSeconds: 0,
    });
    await stop(p);
  });

  it('takes 0 to 3600 seconds', async () => {
    const refused = await runLmskit(
      ['mock', '--port', '0', '--ai-seconds', '3601'],
      {},
      { killAfterMs: 30_000 },
    );
    expect(refused.code).toBe(2);
    expect(refused.output).toMatch(
      /^--ai-seconds takes a whole number of seconds from 0 to 3600, not 3601\n/,
    );
  });
});
