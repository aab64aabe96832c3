// The platform's command runner (docs/adr-0002: one state, deterministic): only successful commands are
// logged, a refused command changes nothing, listeners hear the events a command emitted, and
// replaying the command log onto the same seed gives the same state.
import { describe, expect, it } from 'vitest';
import { loadSeed } from '../seed/index.ts';
import { DAY, VirtualClock } from './clock.ts';
import { DomainError } from './errors.ts';
import { EVENT_LOG_SIZE, emit } from './events.ts';
import type { PlatformEvent } from './model.ts';
import {
  type CommandArgs,
  type CommandLog,
  type CommandLogEntry,
  type CommandName,
  Platform,
  UnknownCommand,
} from './platform.ts';
import { snapshotProblem } from './snapshot-check.ts';
import type { TenantState } from './tenant-state.ts';

function demoPlatform() {
  const seed = loadSeed('demo');
  const platform = new Platform(new VirtualClock({ start: seed.now, frozen: true }), loadSeed);
  platform.load(seed);
  return platform;
}

const snapshotText = (p: Platform) => JSON.stringify(p.snapshot());

/** A command log in memory: entries are appended before their command runs and taken back if it is refused. */
const memoryLog = (entries: CommandLogEntry[], copy = false): CommandLog => ({
  append: (entry) => entries.push(copy ? structuredClone(entry) : entry),
  retract: () => entries.pop(),
});

/** Ids of demo records the commands below refer to. */
const idOf = (p: Platform, apiId: string) => {
  const u = p.tenant('demo').userByApiId(apiId);
  if (!u) throw new Error(`no user ${apiId}`);
  return u.id;
};

type AnyCommand = { [N in CommandName]: [N, CommandArgs<N>] }[CommandName];

/** A run of successful commands of many kinds, with the clock moving in between. */
const story = (p: Platform): AnyCommand[] => [
  [
    'createUser',
    {
      tenantId: 'demo',
      input: {
        id: 'nora',
        name: 'Nora New',
        email: 'nora@demo.example',
        password: 'password-nora',
        roleAlias: 'learner',
        courses: [3],
        deadlineAt: p.now() + 10 * DAY,
        groups: [2],
        attributes: { remote: true, department: 'People' },
      },
    },
  ],
  ['advanceClock', { seconds: 3_600 }],
  [
    'upsertAttributes',
    {
      tenantId: 'demo',
      scope: 'user',
      inputs: [
        { name: 'Shoe size', type: 8, position: 9, isRequired: false, isVisible: true, isEditable: true },
      ],
    },
  ],
  ['createGroup', { tenantId: 'demo', input: { name: 'Support', parentId: 1, description: 'Help desk' } }],
  ['updateGroup', { tenantId: 'demo', groupId: 4, input: { name: 'Platform', parentId: null } }],
  [
    'assignCourse',
    {
      tenantId: 'demo',
      courseId: 12,
      users: ['nora', 'lena', 'nobody'],
      groups: [3],
      deadlineAt: p.now() + DAY,
    },
  ],
  ['recordProgress', { tenantId: 'demo', userId: idOf(p, 'lena'), courseId: 12, action: 'start' }],
  ['advanceClock', { seconds: 2 * DAY }],
  [
    'recordProgress',
    { tenantId: 'demo', userId: idOf(p, 'lena'), courseId: 12, action: 'progress', progressValue: 55 },
  ],
  [
    'recordProgress',
    { tenantId: 'demo', userId: idOf(p, 'lucia'), courseId: 1, action: 'finish', resultValue: 91 },
  ],
  [
    'updateUser',
    { tenantId: 'demo', apiId: 'liam', input: { email: 'liam@new.example', attributes: { remote: false } } },
  ],
  ['banUser', { tenantId: 'demo', apiId: 'lars' }],
  ['publishCourse', { tenantId: 'demo', courseId: 46 }],
  ['updateTenant', { tenantId: 'demo', mcpAccess: 'read' }],
  [
    'createMcpKey',
    {
      tenantId: 'demo',
      id: 'key_x',
      userId: idOf(p, 'max'),
      prefix: 'lmcp_',
      hash: 'ab'.repeat(32),
      scopes: ['read'],
    },
  ],
  ['revokeMcpKey', { tenantId: 'demo', keyId: 'key_x' }],
  ['createReceiver', { tenantId: 'demo', url: 'https://hooks.example/in', secret: 's3cret', events: null }],
  // The receiver wants every event: the publication queues a delivery in the same command.
  ['publishCourse', { tenantId: 'demo', courseId: 47 }],
  ['setClock', { now: p.now() + 5 * DAY }],
  [
    'createTenant',
    {
      tenant: {
        id: 'acme',
        name: 'Acme',
        siteApiKey: 'acme_site_key_0123456789',
        mcpLicensed: true,
        mcpAccess: 'read',
        mcpAiAccess: false,
      },
      input: {
        id: 'boss',
        name: 'Bo Boss',
        email: 'bo@acme.example',
        password: 'secret-bo-1',
        roleAlias: 'admin',
      },
    },
  ],
];

/** Runs a command given as a pair; the cast only bridges the union of pairs to run's generic. */
const runPair = (p: Platform, [name, args]: AnyCommand) =>
  (p.run as (n: CommandName, a: unknown) => unknown)(name, args);

/** Commands that must be refused, each with why. */
const refused: [string, (p: Platform) => AnyCommand][] = [
  [
    'a tenant whose id is taken',
    () => [
      'createTenant',
      {
        tenant: {
          id: 'demo',
          name: 'Again',
          siteApiKey: 'another_site_key_0123456789',
          mcpLicensed: true,
          mcpAccess: 'none',
          mcpAiAccess: true,
        },
        input: { name: 'A', email: 'a@again.example', password: 'secret-a-12', roleAlias: 'admin' },
      },
    ],
  ],
  [
    'a user with a taken e-mail',
    () => [
      'createUser',
      {
        tenantId: 'demo',
        input: {
          name: 'X',
          email: 'ADA@demo.example',
          password: 'password1',
          roleAlias: 'learner',
          courses: [1],
          groups: [1],
        },
      },
    ],
  ],
  ['banning an expert', () => ['banUser', { tenantId: 'demo', apiId: 'otto' }]],
  [
    'a group cycle',
    () => ['updateGroup', { tenantId: 'demo', groupId: 1, input: { name: 'Company', parentId: 4 } }],
  ],
  [
    'an attribute type change',
    () => [
      'upsertAttributes',
      {
        tenantId: 'demo',
        scope: 'group',
        inputs: [
          { name: 'n', apiId: 'new_one', type: 1, position: 5, isRequired: false, isVisible: true },
          { name: 'region', apiId: 'region', type: 1, position: 1, isRequired: false, isVisible: true },
        ],
      },
    ],
  ],
  [
    'finishing a finished course',
    (p) => [
      'recordProgress',
      { tenantId: 'demo', userId: idOf(p, 'lena'), courseId: 1, action: 'finish', resultValue: 10 },
    ],
  ],
  [
    'assigning a missing course',
    () => ['assignCourse', { tenantId: 'demo', courseId: 999, users: ['lena'], groups: [1] }],
  ],
  [
    'updating a missing user',
    () => ['updateUser', { tenantId: 'demo', apiId: 'ghost', input: { email: 'ghost@x.example' } }],
  ],
  [
    'a key for a missing user',
    () => [
      'createMcpKey',
      { tenantId: 'demo', id: 'k', userId: 999, prefix: 'lmcp_', hash: 'cd'.repeat(32), scopes: ['read'] },
    ],
  ],
  ['a command on a missing tenant', () => ['createGroup', { tenantId: 'nope', input: { name: 'G' } }]],
];

describe('Platform.run', () => {
  it('journals each successful command with its arguments and the virtual time it ran at (docs/mock.md, Durable state: an acknowledged write is journalled)', () => {
    const p = demoPlatform();
    const journal: CommandLogEntry[] = [];
    p.setCommandLog(memoryLog(journal));
    const t0 = p.now();
    p.run('createGroup', { tenantId: 'demo', input: { name: 'Support' } });
    p.run('advanceClock', { seconds: 90 });
    p.run('createGroup', { tenantId: 'demo', input: { name: 'Legal' } });
    expect(journal).toEqual([
      { t: 'createGroup', a: { tenantId: 'demo', input: { name: 'Support' } }, at: t0 },
      { t: 'advanceClock', a: { seconds: 90 }, at: t0 },
      { t: 'createGroup', a: { tenantId: 'demo', input: { name: 'Legal' } }, at: t0 + 90 },
    ]);
  });

  it.each(refused)(
    'does not journal a refused command: %s (docs/mock.md, Durable state: only successful commands are journalled)',
    (_, command) => {
      const p = demoPlatform();
      const journal: CommandLogEntry[] = [];
      p.setCommandLog(memoryLog(journal));
      expect(() => runPair(p, command(p))).toThrow(DomainError);
      expect(journal).toEqual([]);
    },
  );

  it.each(refused)(
    'leaves the snapshot unchanged after a refused command: %s (seed 001, Errors; DomainError before any change)',
    (_, command) => {
      const p = demoPlatform();
      const before = snapshotText(p);
      expect(() => runPair(p, command(p))).toThrow(DomainError);
      expect(snapshotText(p)).toBe(before);
    },
  );

  it('stops journalling when the journal is removed (docs/mock.md, Durable state)', () => {
    const p = demoPlatform();
    const journal: CommandLogEntry[] = [];
    p.setCommandLog(memoryLog(journal));
    p.setCommandLog(null);
    p.run('createGroup', { tenantId: 'demo', input: { name: 'Support' } });
    expect(journal).toEqual([]);
  });
});

describe('Platform.onEvents', () => {
  it('tells listeners the events a command emitted, in order, with their tenant (seed 001, Events)', () => {
    const p = demoPlatform();
    const heard: [string, string[]][] = [];
    p.onEvents((tenant: TenantState, events: PlatformEvent[]) =>
      heard.push([tenant.id, events.map((e) => e.type)]),
    );
    p.run('createUser', {
      tenantId: 'demo',
      input: {
        name: 'N',
        email: 'n@demo.example',
        password: 'password1',
        roleAlias: 'learner',
        groups: [2, 3],
      },
    });
    expect(heard).toEqual([['demo', ['user.created', 'group.user.created', 'group.user.created']]]);
  });

  it('tells listeners nothing for a refused command or one without events (seed 001, Events: triggers)', () => {
    const p = demoPlatform();
    let calls = 0;
    p.onEvents(() => calls++);
    expect(() => p.run('banUser', { tenantId: 'demo', apiId: 'otto' })).toThrow(DomainError);
    p.run('createGroup', { tenantId: 'demo', input: { name: 'Quiet' } });
    expect(calls).toBe(0);
  });

  it('hands a listener the course.finished event of a finish (seed 001, Events: course.finished)', () => {
    const p = demoPlatform();
    const heard: PlatformEvent[] = [];
    p.onEvents((_t, events) => heard.push(...events));
    p.run('recordProgress', {
      tenantId: 'demo',
      userId: idOf(p, 'lucia'),
      courseId: 1,
      action: 'finish',
      resultValue: 77,
    });
    expect(heard.map((e) => [e.type, e.body.resultValue])).toEqual([['course.finished', 77]]);
  });

  it('tells a listener the event of a command that cut the event log down (docs/adr-0002: the event log)', () => {
    const p = demoPlatform();
    const t = p.tenant('demo');
    for (let i = t.events.length; i < EVENT_LOG_SIZE; i++) emit(t, 'course.published', { n: i }, p.now());
    const heard: PlatformEvent[] = [];
    p.onEvents((_t, events) => heard.push(...events));
    p.run('createUser', {
      tenantId: 'demo',
      input: { name: 'N', email: 'n@demo.example', password: 'password1', roleAlias: 'learner' },
    });
    expect(t.events.length).toBeLessThan(EVENT_LOG_SIZE);
    expect(heard.map((e) => [e.type, (e.body.user as { email: string }).email])).toEqual([
      ['user.created', 'n@demo.example'],
    ]);
  });

  it('stops telling a listener once it unsubscribes (seed 001, Events)', () => {
    const p = demoPlatform();
    let calls = 0;
    const off = p.onEvents(() => calls++);
    off();
    p.run('publishCourse', { tenantId: 'demo', courseId: 46 });
    expect(calls).toBe(0);
  });
});

describe('Platform.replay', () => {
  it('replaying a recorded journal onto a fresh platform from the same seed gives an identical snapshot (docs/adr-0002: deterministic)', () => {
    const p = demoPlatform();
    const journal: CommandLogEntry[] = [];
    p.setCommandLog(memoryLog(journal, true));
    // Refused commands do not reach the command log and so cannot disturb the replay.
    for (const [, command] of refused) expect(() => runPair(p, command(p))).toThrow();
    for (const command of story(p)) runPair(p, command);
    expect(journal).toHaveLength(story(p).length);

    const fresh = demoPlatform();
    for (const entry of journal) fresh.replay(entry);
    expect(snapshotText(fresh)).toBe(snapshotText(p));
  });

  it('refuses a command this version does not know as UnknownCommand, changing nothing (docs/mock.md, Durable state: a line of a newer lmskit)', () => {
    const p = demoPlatform();
    const before = snapshotText(p);
    for (const t of ['teleportUser', 'toString', '__proto__', 'constructor'])
      expect(() => p.replay({ t: t as CommandName, a: {}, at: p.now() })).toThrow(UnknownCommand);
    expect(snapshotText(p)).toBe(before);
  });

  it('a reset in the journal starts the replay over from the seed (docs/mock.md, the admin API: reset)', () => {
    const p = demoPlatform();
    const journal: CommandLogEntry[] = [];
    p.setCommandLog(memoryLog(journal, true));
    p.run('createGroup', { tenantId: 'demo', input: { name: 'Gone after reset' } });
    p.run('reset', { seed: 'empty' });
    p.run('createGroup', { tenantId: 'demo', input: { name: 'Kept' } });
    const fresh = demoPlatform();
    for (const entry of journal) fresh.replay(entry);
    expect(snapshotText(fresh)).toBe(snapshotText(p));
    expect([...fresh.tenant('demo').groups.values()].map((g) => g.name)).toEqual(['Kept']);
  });

  it('does not journal what it replays (docs/mock.md, Durable state)', () => {
    const source = demoPlatform();
    const journal: CommandLogEntry[] = [];
    source.setCommandLog(memoryLog(journal, true));
    source.run('createGroup', { tenantId: 'demo', input: { name: 'Support' } });
    const target = demoPlatform();
    const again: CommandLogEntry[] = [];
    target.setCommandLog(memoryLog(again));
    for (const entry of journal) target.replay(entry);
    expect(again).toEqual([]);
  });

  it('replays a ban journalled under its former command name, blockUser (docs/mock.md, Durable state: a state file is replayed as written)', () => {
    const p = demoPlatform();
    const lars = () => p.tenant('demo').userByApiId('lars');
    expect(lars()?.isBanned).toBe(false);
    const entry = { t: 'blockUser', a: { tenantId: 'demo', apiId: 'lars' }, at: p.now() };
    p.replay(entry as unknown as CommandLogEntry);
    expect(lars()?.isBanned).toBe(true);
  });
});

describe('Platform.loadSnapshot', () => {
  it('takes its own snapshot back after commands of every kind: the invariants hold for what the mock writes (docs/mock.md, Durable state)', () => {
    const p = demoPlatform();
    for (const command of story(p)) runPair(p, command);
    const snapshot = p.snapshot();
    expect(snapshotProblem(JSON.parse(JSON.stringify(snapshot)))).toBeNull();
    const fresh = demoPlatform();
    fresh.loadSnapshot(JSON.parse(JSON.stringify(snapshot)));
    expect(snapshotText(fresh)).toBe(snapshotText(p));
  });

  it('refuses a snapshot whose counters are behind its records, naming the first problem, and keeps the state (docs/mock.md, Durable state)', () => {
    const p = demoPlatform();
    const before = snapshotText(p);
    const snapshot = JSON.parse(before);
    snapshot.tenants.demo.seq.user = 1;
    expect(() => p.loadSnapshot(snapshot)).toThrow(
      /^the snapshot cannot be loaded: tenant demo: users: id 2 is past the counter seq\.user \(1\)/,
    );
    expect(snapshotText(p)).toBe(before);
    // The counters still lead: a create takes a new id.
    expect(() => runPair(p, story(p)[0] as AnyCommand)).not.toThrow();
  });

  it('refuses a snapshot of a newer format version, saying a newer lmskit wrote it', () => {
    const p = demoPlatform();
    expect(() => p.loadSnapshot({ ...p.snapshot(), version: 2 as 1 })).toThrow(
      /version 2: a newer lmskit wrote it/,
    );
  });
});

describe('Platform.load', () => {
  it('finds a tenant by its site API key and forgets the old ones on reload (seed 001, Authentication: X-API-KEY)', () => {
    const p = demoPlatform();
    const key = p.tenant('demo').siteApiKey;
    expect(p.tenantBySiteKey(key)?.id).toBe('demo');
    expect(p.tenantBySiteKey('wrong')).toBeUndefined();
    p.load({ now: 0, tenants: [] });
    expect(p.tenantBySiteKey(key)).toBeUndefined();
    expect(() => p.tenant('demo')).toThrow(DomainError);
  });
});
