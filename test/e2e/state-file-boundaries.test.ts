// The state file's boundaries through the real `lmskit mock` process (docs/mock.md, Durable state):
// a snapshot whose counters or keys contradict its records is refused, over the admin API (400) and
// at start (exit code 3); a line written by a newer lmskit stops the start and stays in the file; a
// symbolic link is written through to its target, and a path that is no regular file (a FIFO, a
// device) is refused in one sentence; `--fsync` keeps what it acknowledged across `kill -9`.
import { spawn, spawnSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/paths.ts';
import { DEMO_SITE_API_KEY } from '../../mock/seed/demo.ts';
import { client, freePort, type RunningProcess, runLmskit, startLmskit } from './process.ts';

const TOKEN = 'state-file-e2e-token';
const ROOT_USER = process.getuid?.() === 0;
const dirs: string[] = [];
const running: RunningProcess[] = [];

afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs `lmskit <args>` to its end; one that has not ended after 30 s (a refusal that did not come) is killed. */
const refusal = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runLmskit(args, env, { killAfterMs: 30_000 });

/** `lmskit mock` on a state file it must refuse: its exit code and what it printed. */
const startRefused = async (stateFile: string) =>
  refusal(['mock', '--port', String(await freePort()), '--state-file', stateFile]);

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lmskit-state-bounds-'));
  dirs.push(dir);
  return dir;
}

async function mock(args: string[]) {
  const port = await freePort();
  const p = await startLmskit(['mock', '--port', String(port), '--admin-token', TOKEN, ...args], /ready/);
  running.push(p);
  const base = `http://127.0.0.1:${port}`;
  return {
    p,
    v1: client(`${base}/openapi/v1`, { 'x-api-key': DEMO_SITE_API_KEY }),
    admin: client(`${base}/__admin`, { authorization: `Bearer ${TOKEN}` }),
  };
}

async function stop(p: RunningProcess, signal: NodeJS.Signals = 'SIGTERM') {
  p.child.kill(signal);
  return p.exited;
}

const newUser = (id: string) => ({
  id,
  name: `User ${id}`,
  email: `${id}@example.test`,
  password: 'password1',
  roleAlias: 'learner',
});

/** A line of the state file as the mock writes it: JSON, a tab, its CRC-32 in hex. */
const line = (value: unknown) => {
  const json = JSON.stringify(value);
  return `${json}\t${(crc32(json) >>> 0).toString(16).padStart(8, '0')}\n`;
};

const exists = async (v1: ReturnType<typeof client>, id: string) =>
  (await v1(`/users/${id}/assignments`)).status === 200;

describe('a snapshot is checked for its invariants before it replaces the state (docs/mock.md, Durable state)', () => {
  it('PUT /__admin/snapshot with counters behind the records or a repeated key is a 400 naming the first problem; nothing changes and later creates work', async () => {
    const { v1, admin } = await mock([]);
    const snapshot = (await admin('/snapshot')).body;
    const demo = snapshot.tenants.demo;
    const lastUserId = Math.max(...demo.users.map((u: { id: number }) => u.id));

    const behind = structuredClone(snapshot);
    behind.tenants.demo.seq.user = 1;
    const refused = await admin('/snapshot', { method: 'PUT', json: behind });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      code: 'VALIDATION_ERROR',
      error: expect.stringMatching(
        /^the snapshot cannot be loaded: tenant demo: users: id 2 is past the counter seq\.user \(1\)/,
      ),
    });

    const sameEmail = structuredClone(snapshot);
    sameEmail.tenants.demo.users[1].email = sameEmail.tenants.demo.users[0].email.toUpperCase();
    const refusedEmail = await admin('/snapshot', { method: 'PUT', json: sameEmail });
    expect(refusedEmail.status).toBe(400);
    expect(refusedEmail.body.error).toMatch(/users: the e-mail .* is used twice \(ignoring case\)/);

    const sameApiId = structuredClone(snapshot);
    sameApiId.tenants.demo.users[1].apiId = sameApiId.tenants.demo.users[0].apiId;
    const refusedApiId = await admin('/snapshot', { method: 'PUT', json: sameApiId });
    expect(refusedApiId.status).toBe(400);
    expect(refusedApiId.body.error).toMatch(/users: the apiId .* is used twice/);

    const sameId = structuredClone(snapshot);
    sameId.tenants.demo.groups[1].id = sameId.tenants.demo.groups[0].id;
    const refusedId = await admin('/snapshot', { method: 'PUT', json: sameId });
    expect(refusedId.status).toBe(400);
    expect(refusedId.body.error).toMatch(/groups: id \d+ is used twice/);

    // Nothing changed, so the counters still lead and a create is a 201.
    const created = await v1('/users', { method: 'POST', json: newUser('afterrefusal') });
    expect(created.status).toBe(201);
    expect((await admin('/snapshot')).body.tenants.demo.seq.user).toBe(lastUserId + 1);

    // The snapshot as exported loads, of course.
    const own = (await admin('/snapshot')).body;
    expect((await admin('/snapshot', { method: 'PUT', json: own })).status).toBe(200);
    expect((await v1('/users', { method: 'POST', json: newUser('afterimport') })).status).toBe(201);
  });

  it('a state file whose snapshot has counters behind its records stops the start with exit code 3 and that sentence, changing nothing', async () => {
    const dir = tempDir();
    const stateFile = join(dir, 'state.jsonl');
    const first = await mock(['--state-file', stateFile]);
    const snapshot = (await first.admin('/snapshot')).body;
    expect(await stop(first.p)).toBe(0);
    snapshot.tenants.demo.seq.user = 1;
    writeFileSync(stateFile, line({ snapshot }));
    const bytes = readFileSync(stateFile);

    const { code, output } = await startRefused(stateFile);
    expect(code).toBe(3);
    expect(output).toMatch(/damaged at line 1 of 1 \(.*users: id 2 is past the counter seq\.user \(1\)/);
    expect(output).not.toMatch(/^\s+at /m);
    expect(readFileSync(stateFile).equals(bytes)).toBe(true);
  });
});

describe('a line written by a newer lmskit (docs/mock.md, Durable state: never drop a line)', () => {
  it('stops the start with exit code 3 naming the command, leaves the file as it was; --recover skips it and keeps a copy aside', async () => {
    const dir = tempDir();
    const stateFile = join(dir, 'state.jsonl');
    const first = await mock(['--state-file', stateFile]);
    expect((await first.v1('/users', { method: 'POST', json: newUser('before') })).status).toBe(201);
    expect((await first.v1('/users', { method: 'POST', json: newUser('after') })).status).toBe(201);
    await stop(first.p, 'SIGKILL');
    // A command of a later version between two this version knows.
    const [snapshot, before, after] = readFileSync(stateFile, 'utf8').split(/(?<=\n)/);
    const { at } = JSON.parse((before as string).split('\t')[0] as string);
    writeFileSync(
      stateFile,
      `${snapshot}${before}${line({ t: 'teleportUser', a: { tenantId: 'demo', apiId: 'before' }, at })}${after}`,
    );
    const bytes = readFileSync(stateFile);

    const { code, output } = await startRefused(stateFile);
    expect(code).toBe(3);
    expect(output).toMatch(/line 3 .*teleportUser.*this version of lmskit does not know.*newer lmskit/s);
    expect(output).toMatch(/--recover/);
    expect(output).not.toMatch(/skipped line|^\s+at /m);
    expect(readFileSync(stateFile).equals(bytes)).toBe(true);
    expect(readdirSync(dir)).toEqual(['state.jsonl']);

    const recovered = await mock(['--state-file', stateFile, '--recover']);
    expect(recovered.p.output()).toMatch(/skipped line 3: the command teleportUser/);
    const kept = /kept at (\S+)\./.exec(recovered.p.output())?.[1] as string;
    expect(kept).toBeTruthy();
    expect(readFileSync(kept).equals(bytes)).toBe(true);
    expect(await exists(recovered.v1, 'before')).toBe(true);
    expect(await exists(recovered.v1, 'after')).toBe(true);
    await stop(recovered.p, 'SIGKILL');
  });
});

describe('what the state file path is (docs/mock.md, Durable state: a regular file or a new path)', () => {
  it('a symbolic link is written through to its target: the link stays a link, and the target holds every write', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'data'));
    const target = join(dir, 'data', 'state.jsonl');
    const link = join(dir, 'state.jsonl');
    const seeded = await mock(['--state-file', target]);
    expect(await stop(seeded.p)).toBe(0);
    symlinkSync(target, link);

    const first = await mock(['--state-file', link, '--seed', 'empty']);
    expect((await first.v1('/users', { method: 'POST', json: newUser('linked') })).status).toBe(201);
    expect(await stop(first.p)).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(realpathSync(link)).toBe(realpathSync(target));
    expect(readFileSync(target, 'utf8')).toContain('User linked');

    const again = await mock(['--state-file', target]);
    expect(await exists(again.v1, 'linked')).toBe(true);
    await stop(again.p, 'SIGKILL');
    expect(readdirSync(join(dir, 'data'))).toEqual(['state.jsonl']);
  });

  it('a symbolic link to nowhere is refused in one sentence, exit code 2', async () => {
    const dir = tempDir();
    const link = join(dir, 'state.jsonl');
    symlinkSync(join(dir, 'missing', 'state.jsonl'), link);
    const { code, output } = await startRefused(link);
    expect(code).toBe(2);
    expect(output.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^The state file .* cannot be used: it is a symbolic link to .*, which does not exist.*\.$/,
      ),
    ]);
  });

  const fifo = (dir: string) => {
    const path = join(dir, 'state.jsonl');
    spawnSync('mkfifo', [path]);
    return path;
  };
  /** A device node like /dev/null or /dev/zero in a directory of the test's (root only). */
  const device = (minor: number) => (dir: string) => {
    const path = join(dir, 'state.jsonl');
    spawnSync('mknod', [path, 'c', '1', String(minor)]);
    return path;
  };
  type PathCase = [string, (dir: string) => string, RegExp, (path: string) => boolean];
  const cases: PathCase[] = [
    ['a FIFO', fifo, /it is a FIFO \(named pipe\), not a regular file/, (p) => statSync(p).isFIFO()],
    ...(ROOT_USER
      ? ([
          [
            'a device like /dev/null',
            device(3),
            /it is a device, not a regular file/,
            (p) => statSync(p).isCharacterDevice(),
          ],
          [
            'a device like /dev/zero',
            device(5),
            /it is a device, not a regular file/,
            (p) => statSync(p).isCharacterDevice(),
          ],
        ] satisfies PathCase[])
      : []),
  ];
  it.each(cases)(
    '%s is refused in one sentence, exit code 2, and left as it is',
    async (_, make, reason, unchanged) => {
      const dir = tempDir();
      const path = make(dir);
      const { code, output } = await startRefused(path);
      expect(code).toBe(2);
      expect(output.trim().split('\n')).toEqual([
        expect.stringMatching(/^The state file .* cannot be used: .*\.$/),
      ]);
      expect(output).toMatch(reason);
      expect(unchanged(path)).toBe(true);
      expect(readdirSync(dir)).toEqual(['state.jsonl']);
    },
  );
});

/** Whether strace can trace a child here (ptrace may be closed to the tests). */
const STRACE = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', 'true']).status === 0;

/** `lmskit mock` under strace, counting its fdatasync calls while `writes` users are created. */
async function fdatasyncsOf(flags: string[], writes: number): Promise<number> {
  const dir = tempDir();
  const trace = join(dir, 'trace');
  const port = await freePort();
  const child = spawn(
    'strace',
    [
      '-f',
      '-qq',
      '-e',
      'trace=fdatasync',
      '-o',
      trace,
      process.execPath,
      join(ROOT, 'bin', 'lmskit.js'),
      'mock',
      '--port',
      String(port),
      '--admin-token',
      TOKEN,
      '--state-file',
      join(dir, 'state.jsonl'),
      ...flags,
    ],
    // A process group of its own: strace and the mock it runs are killed together (a killed strace
    // would leave its tracee running).
    { cwd: ROOT, stdio: 'ignore', detached: true },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const v1 = client(`http://127.0.0.1:${port}/openapi/v1`, { 'x-api-key': DEMO_SITE_API_KEY });
    await expect
      .poll(
        () =>
          v1('/courses').then(
            (a) => a.status,
            () => 0,
          ),
        { timeout: 60_000 },
      )
      .toBe(200);
    for (let i = 0; i < writes; i++)
      expect((await v1('/users', { method: 'POST', json: newUser(`traced${i}`) })).status).toBe(201);
  } finally {
    process.kill(-(child.pid as number), 'SIGKILL');
    await exited;
  }
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => /fdatasync\(/.test(l)).length;
}

describe('--fsync: a write is answered once its line is flushed to disk (docs/mock.md, Durable state)', () => {
  it('answers writes 2xx and keeps every one across kill -9', async () => {
    const dir = tempDir();
    const stateFile = join(dir, 'state.jsonl');
    const first = await mock(['--state-file', stateFile, '--fsync']);
    expect(first.p.output()).toMatch(
      /state: .*state\.jsonl \(every write flushed to disk before its answer, --fsync\)/,
    );
    const ids = Array.from({ length: 40 }, (_, i) => `synced${i}`);
    const answers = await Promise.all(
      ids.map((id) => first.v1('/users', { method: 'POST', json: newUser(id) })),
    );
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 201));
    await stop(first.p, 'SIGKILL');

    const second = await mock(['--state-file', stateFile, '--fsync']);
    for (const id of ids) expect(await exists(second.v1, id), id).toBe(true);
    await stop(second.p, 'SIGKILL');
  });

  it.runIf(STRACE)(
    'flushes each acknowledged write: fdatasync is called with --fsync (one a write when they come one by one), never without',
    async () => {
      expect(await fdatasyncsOf(['--fsync'], 5)).toBeGreaterThanOrEqual(5);
      expect(await fdatasyncsOf([], 5)).toBe(0);
    },
  );

  it('without --state-file it is one sentence, exit code 2', async () => {
    const { code, output } = await refusal(['mock', '--port', String(await freePort()), '--fsync']);
    expect(code).toBe(2);
    expect(output.trim().split('\n')[0]).toBe(
      '--fsync needs --state-file: without a state file nothing is written to disk',
    );
  });
});
