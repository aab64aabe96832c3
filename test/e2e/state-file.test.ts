// The state file through the real `lmskit mock` process (docs/mock.md, Durable state): a 2xx means
// the write is on disk, and a write the disk does not take is a 503 that changed nothing, through a
// full disk, a read-only directory at compaction and restarts; a damaged file stops the start unless
// --recover; a path that cannot hold the file is one sentence and exit code 2.
//
// Where the tests run as root they fill a real (small) tmpfs and drop to the `nobody` user so that a
// read-only directory applies; elsewhere a full disk is injected through the state file's file-system
// interface into the same app in-process, and permissions apply as they are.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../mock/domain/clock.ts';
import { Platform } from '../../mock/domain/platform.ts';
import { DEMO_SITE_API_KEY } from '../../mock/seed/demo.ts';
import { loadSeed } from '../../mock/seed/index.ts';
import { startServer } from '../../mock/server.ts';
import { StateFile } from '../../mock/store/state-file.ts';
import { diskWithRoom } from '../full-disk.ts';
import {
  client,
  freePort,
  type RunningProcess,
  runLmskit,
  type SpawnOptions,
  startLmskit,
} from './process.ts';

const ROOT_USER = process.getuid?.() === 0;
const NOBODY: SpawnOptions = { uid: 65534, gid: 65534 };
/**
 * Permissions do not bind root, so a read-only directory is tried as `nobody`; that needs `nobody` to
 * read the project (a clone inside a private directory, such as one made by `mktemp -d`, is not).
 */
const READ_ONLY_APPLIES =
  !ROOT_USER ||
  spawnSync(
    process.execPath,
    ['-e', 'require("fs").accessSync(process.argv[1], 4)', join(import.meta.dirname, '../../bin/lmskit.js')],
    {
      ...NOBODY,
      stdio: 'ignore',
    },
  ).status === 0;
const dirs: string[] = [];
const mounts: string[] = [];
const running: RunningProcess[] = [];

afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  for (const m of mounts) execFileSync('umount', [m]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lmskit-state-e2e-'));
  dirs.push(dir);
  return dir;
}

/** A tmpfs of `size` at a new directory, or null where mounting is not allowed. */
function tmpfs(size: string): string | null {
  if (!ROOT_USER) return null;
  const dir = tempDir();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  mounts.push(dir);
  return dir;
}

async function mock(
  stateFile: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
  as: SpawnOptions = {},
) {
  const port = await freePort();
  const p = await startLmskit(
    [
      'mock',
      '--port',
      String(port),
      '--admin-token',
      'e2e-admin-token-16',
      '--state-file',
      stateFile,
      ...extra,
    ],
    /ready/,
    env,
    as,
  );
  running.push(p);
  const base = `http://127.0.0.1:${port}`;
  return { p, base, v1: client(`${base}/openapi/v1`, { 'x-api-key': DEMO_SITE_API_KEY }) };
}

async function kill9(p: RunningProcess) {
  p.child.kill('SIGKILL');
  await p.exited;
}

const newUser = (id: string) => ({
  id,
  name: `User ${id}`,
  email: `${id}@example.test`,
  password: 'password1',
  roleAlias: 'learner',
});
type V1 = ReturnType<typeof client>;
const exists = async (v1: V1, id: string) => (await v1(`/users/${id}/assignments`)).status === 200;

/** Creates users until the disk has refused several in a row: which were answered 201, which 503. */
async function fillTheDisk(v1: V1) {
  const acknowledged: string[] = [];
  const refused: string[] = [];
  let first503: Awaited<ReturnType<V1>> | undefined;
  for (let i = 0; refused.length < 5 && i < 20_000; i++) {
    const answer = await v1('/users', { method: 'POST', json: newUser(`disk${i}`) });
    expect([201, 503]).toContain(answer.status);
    if (answer.status === 201) acknowledged.push(`disk${i}`);
    else {
      refused.push(`disk${i}`);
      first503 ??= answer;
    }
  }
  expect(acknowledged.length).toBeGreaterThan(0);
  expect(first503?.body).toEqual({
    status: 503,
    message: expect.stringMatching(/not saved.*ENOSPC.*retry after \d+s/),
  });
  expect(Number(first503?.headers.get('retry-after'))).toBeGreaterThan(0);
  // A refused write changed nothing: the user is not there while the process runs.
  for (const id of refused) expect(await exists(v1, id), id).toBe(false);
  return { acknowledged, refused };
}

/** After a restart: every acknowledged write is there, none of the refused ones. */
async function expectExactly(
  v1: V1,
  { acknowledged, refused }: { acknowledged: string[]; refused: string[] },
) {
  for (const id of acknowledged) expect(await exists(v1, id), id).toBe(true);
  for (const id of refused) expect(await exists(v1, id), id).toBe(false);
}

describe('a disk that fills up (docs/mock.md, Durable state: 503, nothing changed, every 2xx kept)', () => {
  const disk = tmpfs('256k');

  it.runIf(disk)(
    'real process on a full tmpfs: 503s change nothing, kill -9 and a restart on the full disk keep exactly the 2xx writes, and the retry succeeds once there is room',
    async () => {
      const stateFile = join(disk as string, 'state.jsonl');
      const first = await mock(stateFile);
      const outcome = await fillTheDisk(first.v1);
      await kill9(first.p);

      const second = await mock(stateFile);
      expect(second.p.output()).toMatch(/no room for a fresh snapshot \(ENOSPC\)/);
      await expectExactly(second.v1, outcome);

      execFileSync('mount', ['-o', 'remount,size=4m', disk as string]);
      const retried = outcome.refused[0] as string;
      expect((await second.v1('/users', { method: 'POST', json: newUser(retried) })).status).toBe(201);
      await kill9(second.p);
      const third = await mock(stateFile);
      expect(await exists(third.v1, retried)).toBe(true);
      await kill9(third.p);
    },
  );

  it.runIf(!disk)(
    'in-process with a full disk injected through the state file: the same promises',
    async () => {
      const path = join(tempDir(), 'state.jsonl');
      const { io, room } = diskWithRoom();
      const start = async () => {
        const seed = loadSeed('demo');
        const platform = new Platform(new VirtualClock({ start: seed.now }), loadSeed);
        platform.load(seed);
        const file = new StateFile(path, { fs: io, warn: () => {} });
        file.open(platform);
        const running = await startServer({ platform, adminToken: 'e2e', validateResponses: true });
        return {
          v1: client(`${running.url}/openapi/v1`, { 'x-api-key': DEMO_SITE_API_KEY }),
          stop: running.close,
        };
      };
      const first = await start();
      room.free = 64 * 1024;
      const outcome = await fillTheDisk(first.v1);
      await first.stop();
      const second = await start();
      await expectExactly(second.v1, outcome);
      room.free = Number.POSITIVE_INFINITY;
      expect(
        (await second.v1('/users', { method: 'POST', json: newUser(outcome.refused[0] as string) })).status,
      ).toBe(201);
      await second.stop();
    },
  );
});

describe('a state directory that turns read-only while running (docs/mock.md, Durable state: compaction)', () => {
  it.skipIf(!READ_ONLY_APPLIES)(
    'keeps answering writes 2xx and keeping them while compaction fails, reports it, and shuts down cleanly',
    async () => {
      const dir = tempDir();
      const as = ROOT_USER ? NOBODY : {};
      if (ROOT_USER) chownSync(dir, 65534, 65534);
      const stateFile = join(dir, 'state.jsonl');
      const first = await mock(stateFile, [], { LMSKIT_COMPACT_EVERY: '3' }, as);
      const ids = ['ro0', 'ro1'];
      for (const id of ids)
        expect((await first.v1('/users', { method: 'POST', json: newUser(id) })).status).toBe(201);

      chmodSync(dir, 0o555);
      for (let i = 2; i < 12; i++) {
        ids.push(`ro${i}`);
        expect((await first.v1('/users', { method: 'POST', json: newUser(`ro${i}`) })).status).toBe(201);
      }
      expect(first.p.output()).toMatch(/compaction failed \(EACCES\).*Nothing is lost/);
      // The old failure: writes answered 500 yet applied, so a client's retry met "already taken".
      expect(
        (await first.v1('/users', { method: 'POST', json: newUser('ro11') })).body.errors,
      ).toHaveProperty('id');

      first.p.child.kill('SIGTERM');
      expect(await first.p.exited).toBe(0);
      expect(first.p.output()).toMatch(/no fresh snapshot at shutdown/);
      chmodSync(dir, 0o755);
      const second = await mock(stateFile, [], {}, as);
      for (const id of ids) expect(await exists(second.v1, id), id).toBe(true);
      await kill9(second.p);
    },
  );
});

describe('a damaged state file (docs/mock.md, Durable state: never silently start over)', () => {
  it('stops the start with one paragraph and exit code 3, changing nothing; --recover starts from what could be read and keeps the damaged file', async () => {
    const dir = tempDir();
    const stateFile = join(dir, 'state.jsonl');
    const first = await mock(stateFile);
    expect((await first.v1('/users', { method: 'POST', json: newUser('flip') })).status).toBe(201);
    first.p.child.kill('SIGTERM');
    expect(await first.p.exited).toBe(0);

    // One flipped bit in the snapshot line: the new user's name.
    const bytes = readFileSync(stateFile);
    const at = bytes.indexOf('User flip');
    bytes[at] = (bytes[at] as number) ^ 0x20;
    writeFileSync(stateFile, bytes);

    const port = String(await freePort());
    const stopped = await runLmskit(['mock', '--port', port, '--state-file', stateFile]);
    expect(stopped.code).toBe(3);
    expect(stopped.output).toMatch(/damaged at line 1 of 1 \(checksum mismatch\)/);
    expect(stopped.output).toMatch(/Nothing was changed and the mock did not start/);
    expect(stopped.output).toMatch(/--recover/);
    expect(stopped.output).not.toMatch(/^\s+at /m);
    expect(readFileSync(stateFile).equals(bytes)).toBe(true);
    expect(readdirSync(dir)).toEqual(['state.jsonl']);

    const recovered = await mock(stateFile, ['--recover']);
    const kept = /damaged file is kept at (\S+)\./.exec(recovered.p.output())?.[1] as string;
    expect(readFileSync(kept).equals(bytes)).toBe(true);
    // Nothing of the file could be read, so the mock started from the seed: the user is gone.
    expect(await exists(recovered.v1, 'flip')).toBe(false);
    await kill9(recovered.p);
    const again = await mock(stateFile);
    expect(again.p.output()).not.toMatch(/damaged|skipped|dropped/);
    await kill9(again.p);
  });
});

describe('a path that cannot hold the state file (docs/mock.md, Durable state: exit code 2)', () => {
  const readOnly = () => {
    const dir = tempDir();
    // Root writes anywhere: for root the directory is closed to the `nobody` user the mock runs as.
    chmodSync(dir, ROOT_USER ? 0o755 : 0o555);
    return join(dir, 'state.jsonl');
  };
  type Case = [string, () => string, RegExp, SpawnOptions];
  const readOnlyCase: Case = [
    'a read-only directory',
    readOnly,
    /may not write files in/,
    ROOT_USER ? NOBODY : {},
  ];
  const cases: Case[] = [
    ['a directory', () => tempDir(), /is a directory/, {}],
    ['a missing parent directory', () => join(tempDir(), 'missing', 'state.jsonl'), /does not exist/, {}],
    ...(READ_ONLY_APPLIES ? [readOnlyCase] : []),
  ];
  it.each(cases)('refuses %s in one sentence, without a stack trace', async (_, path, reason, as) => {
    const stateFile = path();
    const { code, output } = await runLmskit(
      ['mock', '--port', String(await freePort()), '--state-file', stateFile],
      {},
      as,
    );
    expect(code).toBe(2);
    expect(output.trim()).toMatch(reason);
    expect(output.trim().split('\n')).toEqual([
      expect.stringMatching(/^The state file .* cannot be used: .*\.$/),
    ]);
  });
});
