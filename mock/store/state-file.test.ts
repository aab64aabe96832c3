// The durable state file (docs/mock.md, Durable state; `--state-file`): a snapshot line and then one
// journal line per acknowledged command, each with a CRC32. A restart must restore every
// acknowledged write; a torn or corrupt line is reported and skipped, never fatal.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../domain/clock.ts';
import { DomainError } from '../domain/errors.ts';
import { type CommandArgs, type CommandName, Platform } from '../domain/platform.ts';
import { loadSeed } from '../seed/index.ts';
import { StateFile } from './state-file.ts';

let dir = '';
let path = '';
const opened: StateFile[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lmskit-state-'));
  path = join(dir, 'state.jsonl');
});

afterEach(() => {
  for (const file of opened.splice(0)) file.close();
  rmSync(dir, { recursive: true, force: true });
});

function demoPlatform() {
  const seed = loadSeed('demo');
  const platform = new Platform(new VirtualClock({ start: seed.now, frozen: true }), loadSeed);
  platform.load(seed);
  return platform;
}

/** A process start: the seed is loaded, then the state file (as mock/main.ts does). */
function start(compactEvery?: number) {
  const platform = demoPlatform();
  const file = new StateFile(path, compactEvery);
  opened.push(file);
  const report = file.open(platform);
  return { platform, file, report };
}

const snapshotText = (p: Platform) => JSON.stringify(p.snapshot());
const lines = () => readFileSync(path, 'utf8').split('\n').filter(Boolean);

type AnyCommand = { [N in CommandName]: [N, CommandArgs<N>] }[CommandName];
const run = (p: Platform, [name, args]: AnyCommand) =>
  (p.run as (n: CommandName, a: unknown) => unknown)(name, args);

/** Acknowledged writes of several kinds; none depends on another, so any one can be lost alone. */
const WRITES: AnyCommand[] = [
  [
    'createUser',
    {
      tenantId: 'demo',
      input: {
        id: 'nora',
        name: 'Nora',
        email: 'nora@demo.example',
        password: 'password-1',
        roleAlias: 'learner',
        courses: [4],
      },
    },
  ],
  ['advanceClock', { seconds: 3_600 }],
  ['createGroup', { tenantId: 'demo', input: { name: 'Support', parentId: 1 } }],
  [
    'assignCourse',
    { tenantId: 'demo', courseId: 11, users: ['lena', 'liam'], groups: [], deadlineAt: 1_800_000_000 },
  ],
  ['blockUser', { tenantId: 'demo', apiId: 'lars' }],
  ['advanceClock', { seconds: 60 }],
  ['publishCourse', { tenantId: 'demo', courseId: 47 }],
  ['updateUser', { tenantId: 'demo', apiId: 'liam', input: { email: 'liam@new.example' } }],
];

/** The state a platform reaches running `commands` from the seed, without any state file. */
function reference(commands: AnyCommand[]): string {
  const p = demoPlatform();
  for (const command of commands) run(p, command);
  return snapshotText(p);
}

describe('StateFile.open on a missing file', () => {
  it('starts from the seed and reports created: true (docs/mock.md, Durable state: a fresh state comes from the seed)', () => {
    const { platform, report } = start();
    expect(report).toEqual({ replayed: 0, skipped: [], created: true });
    expect(snapshotText(platform)).toBe(snapshotText(demoPlatform()));
    expect(existsSync(path)).toBe(true);
    expect(lines()).toHaveLength(1);
  });

  it('treats an empty file like a missing one (docs/mock.md, Durable state)', () => {
    writeFileSync(path, '');
    const { platform, report } = start();
    expect(report.created).toBe(true);
    expect(snapshotText(platform)).toBe(snapshotText(demoPlatform()));
  });
});

describe('StateFile: acknowledged writes survive a restart', () => {
  it('restores every acknowledged write after a restart without a clean shutdown (docs/mock.md, Durable state: survives kill -9)', () => {
    const first = start();
    for (const command of WRITES) run(first.platform, command);
    expect(lines()).toHaveLength(1 + WRITES.length);
    // No close(): the process dies; a new process opens the same file.
    const second = start();
    expect(second.report).toEqual({ replayed: WRITES.length, skipped: [], created: false });
    expect(snapshotText(second.platform)).toBe(snapshotText(first.platform));
    expect(second.platform.tenant('demo').userByApiId('nora')?.email).toBe('nora@demo.example');
  });

  it('keeps the writes of every session across several restarts (docs/mock.md, Durable state)', () => {
    const first = start();
    for (const command of WRITES.slice(0, 4)) run(first.platform, command);
    const second = start();
    for (const command of WRITES.slice(4)) run(second.platform, command);
    const third = start();
    expect(snapshotText(third.platform)).toBe(snapshotText(second.platform));
    expect(snapshotText(third.platform)).toBe(reference(WRITES));
  });

  it('folds the journal into a fresh snapshot at start, so the next start replays nothing (state-file.ts: compaction)', () => {
    const first = start();
    for (const command of WRITES) run(first.platform, command);
    start();
    expect(lines()).toHaveLength(1);
    const third = start();
    expect(third.report).toEqual({ replayed: 0, skipped: [], created: false });
    expect(snapshotText(third.platform)).toBe(snapshotText(first.platform));
  });

  it('compacts while running and still restores every write (state-file.ts: compactEvery)', () => {
    const first = start(3);
    for (const command of WRITES) run(first.platform, command);
    expect(lines().length).toBeLessThanOrEqual(3);
    const second = start();
    expect(second.report.skipped).toEqual([]);
    expect(snapshotText(second.platform)).toBe(snapshotText(first.platform));
  });

  it('writes nothing for a refused command (docs/mock.md, Durable state: only successful commands are journalled)', () => {
    const first = start();
    run(first.platform, WRITES[0] as AnyCommand);
    const before = readFileSync(path, 'utf8');
    expect(() => first.platform.run('blockUser', { tenantId: 'demo', apiId: 'otto' })).toThrow(DomainError);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});

describe('StateFile: damaged lines are reported and skipped', () => {
  it('skips a last line cut in the middle and keeps every other write (docs/mock.md, Durable state: a torn tail is not fatal)', () => {
    const first = start();
    for (const command of WRITES) run(first.platform, command);
    const text = readFileSync(path, 'utf8');
    const lastStart = text.lastIndexOf('\n', text.length - 2) + 1;
    const cut = lastStart + Math.floor((text.length - lastStart) / 2);
    writeFileSync(path, text.slice(0, cut));

    const second = start();
    expect(second.report.skipped).toEqual([{ line: 1 + WRITES.length, reason: expect.any(String) }]);
    expect(second.report.replayed).toBe(WRITES.length - 1);
    expect(snapshotText(second.platform)).toBe(reference(WRITES.slice(0, -1)));
  });

  it.each<[string, (line: string) => string]>([
    ['a wrong checksum', (line) => `${line.slice(0, line.lastIndexOf('\t'))}\t00000000`],
    ['a changed payload', (line) => line.replace('"Support"', '"Suppurt"')],
  ])(
    'stops at a line with %s: the writes before it are kept, the rest is not replayed onto the wrong state, and the file is kept aside (state-file.ts: CRC32 per line)',
    (_, damage) => {
      const first = start();
      for (const command of WRITES) run(first.platform, command);
      const all = lines();
      // Line 1 is the snapshot; WRITES[2] (the Support group) is on line 4.
      const index = 3;
      expect(all[index]).toContain('"Support"');
      all[index] = damage(all[index] ?? '');
      writeFileSync(path, `${all.join('\n')}\n`);

      const second = start();
      expect(second.report.skipped[0]).toEqual({ line: 4, reason: expect.stringMatching(/checksum/) });
      expect(second.report.skipped[1]?.reason).toMatch(/not replayed/);
      expect(second.report.replayed).toBe(2);
      expect(snapshotText(second.platform)).toBe(reference(WRITES.slice(0, 2)));
      expect(second.report.keptAside).toBeDefined();
      expect(readFileSync(second.report.keptAside as string, 'utf8')).toBe(`${all.join('\n')}\n`);
    },
  );

  it('drops the damaged line for good: the next start reports nothing (state-file.ts: compaction at start)', () => {
    const first = start();
    for (const command of WRITES) run(first.platform, command);
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, -10));
    const second = start();
    expect(second.report.skipped).toHaveLength(1);
    const third = start();
    expect(third.report).toEqual({ replayed: 0, skipped: [], created: false });
    expect(snapshotText(third.platform)).toBe(snapshotText(second.platform));
  });
});

describe('StateFile: secrets', () => {
  it('never writes a user’s password in clear to the state file (seed 001, Users: password; users.ts: only a hash is kept)', () => {
    const first = start();
    first.platform.run('createUser', {
      tenantId: 'demo',
      input: { name: 'Nora', email: 'nora@demo.example', password: 'Zebra-Sunrise-42', roleAlias: 'learner' },
    });
    expect(readFileSync(path, 'utf8')).not.toContain('Zebra-Sunrise-42');
  });
});
