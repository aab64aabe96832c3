// Fixtures (docs/mock.md, Fixtures): a state written by hand, checked against the admin contract's
// `Fixture` schema, built through the domain's own rules, deterministic, with secrets only as hashes in
// what a load logs; every problem names the entry and the field. The example in docs/ is loaded
// here, so it stays valid.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/paths.ts';
import { statusOf } from '../domain/assignments.ts';
import { VirtualClock } from '../domain/clock.ts';
import { hashKey } from '../domain/mcp-keys.ts';
import type { Assignment, AuditEntry, TenantData } from '../domain/model.ts';
import { Platform } from '../domain/platform.ts';
import { TenantState } from '../domain/tenant-state.ts';
import { hashPassword } from '../domain/users.ts';
import { StateFile } from '../store/state-file.ts';
import { START } from './demo.ts';
import {
  aiSettingsProblem,
  FixtureProblem,
  fixturesFrom,
  MAX_FIXTURE_FILE_BYTES,
  readFixtureFile,
} from './fixture-file.ts';
import { buildFixture, type Fixture, fixtureSiteKey, prepareFixture } from './fixtures.ts';
import { loadSeed } from './index.ts';

const EXAMPLE = join(ROOT, 'docs', 'fixtures-example.yaml');
const ADA_WRITE = 'lmcp_fixture-key-ada-read-write-0000000000000000';
const KEY = (n: number) => `lmcp_${String(n).padStart(43, 'k')}`;
const NOW = Date.parse('2026-03-02T09:00:00Z') / 1000;

const dir = mkdtempSync(join(tmpdir(), 'lmskit-fixtures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** A small valid tenant to break one field of at a time. */
const tenant = (more: Record<string, unknown> = {}) => ({
  id: 'acme',
  users: [
    { id: 'ada', name: 'Ada', email: 'ada@acme.example', role: 'admin' as const },
    { id: 'lena', name: 'Lena', email: 'lena@acme.example', role: 'learner' as const },
  ],
  groups: [{ name: 'Sales', members: ['lena'] }],
  courses: [{ name: 'Onboarding' }, { name: 'Safety' }],
  ...more,
});
const problemOf = (fixture: unknown) => {
  try {
    fixturesFrom(fixture as Fixture);
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureProblem);
    return (error as Error).message;
  }
  throw new Error('the fixtures were accepted');
};

const assignmentsOf = (t: TenantData) => [...(t.assignments as Iterable<Assignment>)];

describe('the example of docs/fixtures-example.yaml', () => {
  const { fixture, state } = fixturesFrom(EXAMPLE);
  const acme = state.tenants[0] as TenantData;
  const user = (apiId: string) => acme.users.find((u) => u.apiId === apiId);
  const status = (apiId: string, courseId: number) => {
    const a = assignmentsOf(acme).find((x) => x.userId === user(apiId)?.id && x.courseId === courseId);
    return a && statusOf(a, state.now);
  };

  it('is a YAML file of the schema: the clock, the tenant and its licence, ids in the order written', () => {
    expect(fixture.tenants[0]?.id).toBe('acme');
    expect(state.now).toBe(NOW);
    expect(acme).toMatchObject({
      id: 'acme',
      siteApiKey: 'acme_site_key_0123456789abcdef',
      mcpAccess: 'full',
    });
    expect(acme.users.map((u) => [u.id, u.apiId, u.role])).toEqual([
      [1, 'ada', 'admin'],
      [2, 'lena', 'learner'],
      [3, 'liam', 'learner'],
    ]);
    expect(acme.courses.map((c) => [c.id, c.name, c.isDraft])).toEqual([
      [1, 'Onboarding', false],
      [2, 'Code of conduct', true],
      [3, 'Negotiation skills', false],
    ]);
    expect(user('lena')?.attributes).toEqual({ department: 'Sales' });
    expect(acme.ai).toMatchObject({ generationMinSeconds: 0, generationMaxSeconds: 0 });
  });

  it('has two learners in group Sales, one overdue on course 3, one finished with a certificate', () => {
    expect(acme.groups).toMatchObject([{ name: 'Sales', memberIds: [2, 3], courseIds: [1] }]);
    expect(status('lena', 1)).toBe('notStarted');
    expect(status('liam', 1)).toBe('notStarted');
    expect(status('lena', 3)).toBe('overdue');
    expect(status('liam', 3)).toBe('finished');
    expect(acme.certificates).toMatchObject([{ userId: 3, courseId: 3 }]);
  });

  it('is built through the domain: the events and audit entries creating it would have made', () => {
    const types = acme.events.map((e) => e.type);
    expect(types.filter((t) => t === 'user.created')).toHaveLength(3);
    expect(types.filter((t) => t === 'group.user.created')).toHaveLength(2);
    expect(types.filter((t) => t === 'course.published')).toHaveLength(2);
    expect(types.filter((t) => t === 'course.finished')).toHaveLength(1);
    expect(acme.audit.map((a) => a.action)).toContain('user.create');
  });

  it('keeps MCP keys and passwords as hashes only, with the key prefix', () => {
    const text = JSON.stringify(state);
    expect(text).not.toContain(ADA_WRITE);
    expect(text).not.toContain('liam-secret-1');
    expect(acme.mcpKeys).toMatchObject([
      { prefix: 'lmcp_', scopes: ['read'], userId: 1 },
      { prefix: 'lmcp_', hash: hashKey(ADA_WRITE), scopes: ['read', 'write'], userId: 1 },
    ]);
    expect(user('liam')?.passwordHash).toBe(hashPassword('liam-secret-1'));
    expect(user('ada')?.passwordHash).toBe(hashPassword('fixture-password-ada'));
  });

  it('makes everything a minute apart, before the clock and before the earliest deadline', () => {
    const deadline = Date.parse('2026-02-20T00:00:00Z') / 1000;
    const times = [
      ...acme.users.map((u) => u.createdAt),
      ...acme.courses.map((c) => c.createdAt),
      ...assignmentsOf(acme).flatMap((a) => [a.assignedAt, a.startedAt ?? 0, a.finishedAt ?? 0]),
      ...acme.mcpKeys.map((k) => k.createdAt),
    ];
    expect(Math.max(...times)).toBeLessThanOrEqual(deadline - 86_400);
    expect(new Set(acme.users.map((u) => u.createdAt)).size).toBe(3);
  });

  it('is deterministic: the same fixtures give the same state, key for key', () => {
    expect(JSON.stringify(fixturesFrom(EXAMPLE).state)).toBe(JSON.stringify(state));
  });
});

describe('the fixtures the docs show', () => {
  const doc = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');
  /** The first ```yaml block after `marker` in a page. */
  const yamlAfter = (page: string, marker: string) => {
    const from = page.indexOf(marker);
    expect(from, marker).toBeGreaterThan(-1);
    return /```yaml\n([\s\S]*?)```/.exec(page.slice(from))?.[1] ?? '';
  };

  it('docs/mock.md shows docs/fixtures-example.yaml as it is', () => {
    expect(yamlAfter(doc('mock.md'), '### Fixtures')).toBe(doc('fixtures-example.yaml'));
  });

  it("docs/guide.md's fixtures load, with lena overdue on course 3", () => {
    const { state } = fixturesFrom(file('sales.yaml', yamlAfter(doc('guide.md'), '### Start from fixtures')));
    const acme = state.tenants[0] as TenantData;
    expect(assignmentsOf(acme).map((a) => [a.userId, a.courseId, statusOf(a, state.now)])).toEqual([
      [2, 3, 'overdue'],
    ]);
  });
});

describe('what a load journals (prepareFixture)', () => {
  it('holds no password and no key text, and resolves the run’s AI settings into each tenant', () => {
    const prepared = prepareFixture(
      {
        tenants: [
          {
            id: 'a',
            users: [{ id: 'x', name: 'X', email: 'x@a.example', role: 'admin', password: 'secret-of-x' }],
            mcpKeys: [{ user: 'x', key: KEY(1), scopes: ['read'] }],
          },
          { id: 'b', ai: { generationMaxSeconds: 5 } },
        ],
      },
      { ai: { generationMinSeconds: 0, generationMaxSeconds: 0 } },
    );
    const text = JSON.stringify(prepared);
    expect(text).not.toContain('secret-of-x');
    expect(text).not.toContain(KEY(1));
    expect(prepared.tenants.map((t) => t.ai)).toEqual([
      { generationMinSeconds: 0, generationMaxSeconds: 0 },
      { generationMinSeconds: 0, generationMaxSeconds: 5 },
    ]);
    expect(prepared.tenants[1]?.siteApiKey).toBe(fixtureSiteKey('b'));
    expect(prepared.now).toBe(START);
    // Replaying the command builds the same state from what it logged.
    expect(JSON.stringify(buildFixture(JSON.parse(text)))).toBe(JSON.stringify(buildFixture(prepared)));
  });

  it('loads into a platform in place of the state, as the command does', () => {
    const platform = new Platform(new VirtualClock({ start: START, frozen: true }), loadSeed);
    platform.load(loadSeed('demo'));
    const now = platform.run('loadFixtures', {
      fixtures: prepareFixture({ now: '2026-05-01T00:00:00Z', tenants: [tenant()] }),
    });
    expect(now).toBe(Date.parse('2026-05-01T00:00:00Z') / 1000);
    expect([...platform.tenants.keys()]).toEqual(['acme']);
  });
});

describe('a banned user in fixtures (docs/mock.md, Fixtures: a ban comes last)', () => {
  const banned = tenant({
    users: [
      { id: 'ada', name: 'Ada', email: 'ada@acme.example', role: 'admin' as const },
      { id: 'lena', name: 'Lena', email: 'lena@acme.example', role: 'learner' as const, banned: true },
    ],
    courses: [{ name: 'Onboarding' }, { name: 'Safety', certificate: true }],
    assignments: [
      { user: 'lena', course: 1, progress: 40 },
      { user: 'lena', course: 2, progress: 100, result: 90 },
    ],
  });

  it('keeps the progress, the certificate and course.finished as what the user did before the ban (000/ban-user.keeps-history: "keeps history")', () => {
    const acme = fixturesFrom({ tenants: [banned] }).state.tenants[0] as TenantData;
    const lena = acme.users.find((u) => u.apiId === 'lena');
    expect(lena?.isBanned).toBe(true);
    expect(assignmentsOf(acme).map((a) => [a.courseId, a.progressValue, a.resultValue])).toEqual([
      [1, 40, null],
      [2, 100, 90],
    ]);
    expect(acme.certificates).toMatchObject([{ userId: lena?.id, courseId: 2 }]);
    const finished = acme.events.find((e) => e.type === 'course.finished');
    const ban = [...(acme.audit as Iterable<AuditEntry>)].find((e) => e.action === 'user.ban');
    expect(finished && ban && finished.occuredAt < ban.createdAt).toBe(true);
  });

  it('loaded, the banned learner cannot play on: 422 USER_BANNED (000/ban-user: "revokes login and course access")', () => {
    const platform = new Platform(new VirtualClock({ start: START, frozen: true }), loadSeed);
    platform.run('loadFixtures', { fixtures: prepareFixture({ tenants: [banned] }) });
    const lena = platform.tenant('acme').userByApiId('lena');
    expect(() =>
      platform.run('recordProgress', {
        tenantId: 'acme',
        userId: lena?.id ?? 0,
        courseId: 1,
        action: 'progress',
        progressValue: 60,
      }),
    ).toThrow(expect.objectContaining({ code: 'USER_BANNED' }));
  });
});

describe('a load with a state file (docs/mock.md, Durable state)', () => {
  it('is one journalled command: a restart replays it to the same state, and the file holds no secret', () => {
    const path = join(dir, 'state.jsonl');
    const platform = () => {
      const p = new Platform(new VirtualClock({ start: START, frozen: true }), loadSeed);
      p.load(loadSeed('demo'));
      return p;
    };
    const first = platform();
    const file = new StateFile(path, { warn: () => {} });
    file.open(first);
    first.run('loadFixtures', { fixtures: fixturesFrom(EXAMPLE).prepared });
    file.close();
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('"t":"loadFixtures"');
    expect(text).not.toContain(ADA_WRITE);
    expect(text).not.toContain('liam-secret-1');

    const second = platform();
    const again = new StateFile(path, { warn: () => {} });
    expect(again.open(second)).toMatchObject({ replayed: 1, created: false });
    again.close();
    expect(JSON.stringify(second.snapshot())).toBe(JSON.stringify(first.snapshot()));
  });
});

describe('problems name the entry and the field, and nothing is built', () => {
  it.each<[string, unknown, string]>([
    [
      'an e-mail used twice, whatever its case',
      {
        tenants: [
          tenant({
            users: [...tenant().users, { id: 'x', name: 'X', email: 'LENA@acme.example', role: 'learner' }],
          }),
        ],
      },
      'tenants[0].users[2].email: already used by tenants[0].users[1]',
    ],
    [
      'a user id used twice',
      {
        tenants: [
          tenant({
            users: [...tenant().users, { id: 'ada', name: 'X', email: 'x@acme.example', role: 'learner' }],
          }),
        ],
      },
      'tenants[0].users[2].id: already used by tenants[0].users[0]',
    ],
    [
      'a member who is no user',
      { tenants: [tenant({ groups: [{ name: 'Sales', members: ['lena', 'zed'] }] })] },
      'tenants[0].groups[0].members[1]: no user has the id zed in tenants[0].users',
    ],
    [
      'a parent group not listed before',
      { tenants: [tenant({ groups: [{ name: 'Sales', parent: 'Company' }, { name: 'Company' }] })] },
      'tenants[0].groups[0].parent: no group named Company is listed before it',
    ],
    [
      'a course id past the courses',
      { tenants: [tenant({ assignments: [{ user: 'lena', course: 3 }] })] },
      'tenants[0].assignments[0].course: no course has the id 3: tenants[0].courses has 2',
    ],
    [
      'a course name no course has',
      { tenants: [tenant({ assignments: [{ user: 'lena', course: 'Fire safety' }] })] },
      'tenants[0].assignments[0].course: no course is named Fire safety in tenants[0].courses',
    ],
    [
      'a course name two courses have',
      {
        tenants: [
          tenant({ courses: [{ name: 'A' }, { name: 'A' }], assignments: [{ user: 'lena', course: 'A' }] }),
        ],
      },
      'tenants[0].assignments[0].course: 2 courses are named A (tenants[0].courses[0], tenants[0].courses[1]); name it by its id',
    ],
    [
      'an assignment to a user and a group at once',
      { tenants: [tenant({ assignments: [{ user: 'lena', group: 'Sales', course: 1 }] })] },
      'tenants[0].assignments[0]: name a user or a group, not both',
    ],
    [
      "a group's assignment with progress",
      { tenants: [tenant({ assignments: [{ group: 'Sales', course: 1, progress: 50 }] })] },
      "tenants[0].assignments[0].progress: only a user's assignment has progress",
    ],
    [
      'a result of an unfinished assignment',
      { tenants: [tenant({ assignments: [{ user: 'lena', course: 1, progress: 50, result: 80 }] })] },
      'tenants[0].assignments[0].result: only a finished assignment (progress: 100) has a result',
    ],
    [
      'the same course assigned to a user twice',
      {
        tenants: [
          tenant({
            assignments: [
              { user: 'lena', course: 1 },
              { user: 'lena', course: 'Onboarding' },
            ],
          }),
        ],
      },
      'tenants[0].assignments[1]: user lena is assigned course 1 by tenants[0].assignments[0] already',
    ],
    [
      "a deadline a group's assignment listed before would lose",
      {
        tenants: [
          tenant({
            assignments: [
              { group: 'Sales', course: 1 },
              { user: 'lena', course: 1, deadline: '2026-06-01T00:00:00Z' },
            ],
          }),
        ],
      },
      "tenants[0].assignments[1].deadline: lena has course 1 already, through a group's assignment listed before, with no deadline; list this assignment before the group's",
    ],
    [
      'a key text used in two tenants',
      {
        tenants: [
          tenant({ mcpKeys: [{ user: 'ada', key: KEY(1), scopes: ['read'] }] }),
          { ...tenant({ mcpKeys: [{ user: 'ada', key: KEY(1), scopes: ['read'] }] }), id: 'other' },
        ],
      },
      'tenants[1].mcpKeys[0].key: already used by tenants[0].mcpKeys[0]',
    ],
    [
      'a key on a tenant without an MCP licence (seed 000, Authentication 7)',
      {
        tenants: [tenant({ mcpLicensed: false, mcpKeys: [{ user: 'ada', key: KEY(1), scopes: ['read'] }] })],
      },
      'tenants[0].mcpKeys[0]: tenants[0] has mcpLicensed: false, and an MCP key needs an MCP licence',
    ],
    [
      'a tenant id used twice',
      { tenants: [tenant(), tenant()] },
      'tenants[1].id: already used by tenants[0]; tenants[1].siteApiKey: already used by tenants[0]',
    ],
    [
      'options of an attribute that is no choice',
      { tenants: [tenant({ userAttributes: [{ apiId: 'level', type: 1, options: ['a'] }] })] },
      'tenants[0].userAttributes[0].options: only a choice attribute (type 3 or 4) has options',
    ],
    [
      'a value its attribute refuses (a domain rule)',
      {
        tenants: [
          tenant({
            userAttributes: [{ apiId: 'years', type: 8 }],
            users: [
              {
                id: 'ada',
                name: 'Ada',
                email: 'ada@acme.example',
                role: 'admin',
                attributes: { years: 'many' },
              },
            ],
            groups: [],
          }),
        ],
      },
      'tenants[0].users[0].attributes.years: must be a number',
    ],
    [
      'a time zone that is no IANA name (a domain rule)',
      {
        tenants: [
          tenant({
            users: [
              { id: 'ada', name: 'Ada', email: 'ada@acme.example', role: 'admin', timezone: 'europe/berlin' },
            ],
            groups: [],
          }),
        ],
      },
      'tenants[0].users[0].timezone:',
    ],
    [
      'AI settings whose shortest job is longer than the longest',
      { tenants: [tenant({ ai: { generationMinSeconds: 40 } })] },
      'tenants[0].ai.generationMinSeconds: must not exceed generationMaxSeconds',
    ],
    [
      'a key not of seed 000’s format (the schema)',
      { tenants: [tenant({ mcpKeys: [{ user: 'ada', key: 'lmcp_short', scopes: ['read'] }] })] },
      'tenants[0].mcpKeys[0].key: must match pattern "^[a-z]{4}_[A-Za-z0-9_-]{43}$"',
    ],
    [
      'an e-mail address without a dot in its domain: one sentence, not the pattern and the format',
      { tenants: [tenant({ users: [{ id: 'ada', name: 'Ada', email: 'ada@localhost', role: 'admin' }] })] },
      'tenants[0].users[0].email: must be an e-mail address such as anna@example.com: a local part, "@" and a domain with a dot',
    ],
    [
      'a field the schema does not have',
      { tenants: [tenant({ users: [{ id: 'ada', name: 'Ada', mail: 'ada@acme.example', role: 'admin' }] })] },
      'tenants[0].users[0].email: is required; tenants[0].users[0].mail: unknown field, not allowed here',
    ],
    [
      'a course that is neither an id nor a name',
      { tenants: [tenant({ assignments: [{ user: 'lena', course: 0 }] })] },
      'tenants[0].assignments[0].course: must be a whole number from 1 (an id) or a name',
    ],
    ['no tenants', { tenants: [] }, 'tenants: must NOT have fewer than 1 items'],
  ])('%s', (_title, fixture, message) => {
    expect(problemOf(fixture)).toContain(message);
    // Said once, in the contract's words: never again as the raw pattern or format that failed.
    expect(problemOf(fixture)).not.toMatch(/must match format|must match pattern "\^\[A-Za-z0-9!/);
  });

  it('lists at most ten problems and counts the rest', () => {
    const users = Array.from({ length: 13 }, (_, i) => ({
      id: `u${i}`,
      name: 'U',
      email: 'same@acme.example',
      role: 'learner',
    }));
    expect(problemOf({ tenants: [{ id: 'acme', users }] })).toMatch(
      /users\[10\]\.email: already used by tenants\[0\]\.users\[0\]; and 2 more$/,
    );
  });
});

describe('fixtures files', () => {
  const fixture = { now: '2026-03-02T09:00:00Z', tenants: [tenant()] };

  it('reads JSON by its name and YAML otherwise; dates stay strings', () => {
    expect(readFixtureFile(file('f.json', JSON.stringify(fixture)))).toEqual(fixture);
    expect(readFixtureFile(file('f.yaml', 'now: 2026-03-02T09:00:00Z\ntenants: [{ id: acme }]\n'))).toEqual({
      now: '2026-03-02T09:00:00Z',
      tenants: [{ id: 'acme' }],
    });
  });

  it('names the file and what is wrong with it, in one line', () => {
    const yaml = file('bad.yaml', 'tenants:\n  - id: a\n  - id: a\n    id: b\n');
    expect(() => readFixtureFile(yaml)).toThrow(
      `${yaml} is not YAML: Map keys must be unique at line 4, column 5`,
    );
    expect(() => readFixtureFile(file('bad.json', '{"tenants": ['))).toThrow(/bad\.json is not JSON: /);
    expect(() => readFixtureFile(join(dir, 'none.yaml'))).toThrow(`${join(dir, 'none.yaml')}: no such file`);
    mkdirSync(join(dir, 'folder.yaml'));
    expect(() => readFixtureFile(join(dir, 'folder.yaml'))).toThrow(/folder\.yaml is not a regular file/);
    const big = file('big.yaml', `# ${'x'.repeat(MAX_FIXTURE_FILE_BYTES)}\n`);
    expect(() => readFixtureFile(big)).toThrow(
      /big\.yaml has 4194307 bytes; a fixtures file has at most 4194304 \(4 MB\)/,
    );
    const unknown = file('dup.yaml', 'tenants:\n  - id: a\n  - id: a\n');
    expect(() => fixturesFrom(unknown)).toThrow(`${unknown}: tenants[1].id: already used by tenants[0]`);
  });

  it('refuses an alias bomb rather than expanding it', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(', ')}]`,
      );
    expect(() => readFixtureFile(file('bomb.yaml', `${lines.join('\n')}\n`))).toThrow(
      /is not YAML: .*alias/i,
    );
  });
});

describe('what fixtures expand to is bounded, not only their bytes (docs/mock.md, Fixtures)', () => {
  it('refuses a small file that repeats a large part by alias into many tenants, before building anything', () => {
    // 30 000 users written once (about 1.5 MB) by the first tenant, then aliased by 19 more.
    const users = Array.from(
      { length: 30_000 },
      (_, i) => `      - {id: u${i}, name: U, email: u${i}@x.example}`,
    );
    const others = Array.from({ length: 19 }, (_, i) => `  - {id: t${i}, users: *users}`);
    const text = `tenants:\n  - id: first\n    users: &users\n${users.join('\n')}\n${others.join('\n')}\n`;
    const path = file('aliased.yaml', text);
    expect(statSync(path).size).toBeLessThan(MAX_FIXTURE_FILE_BYTES);
    expect(() => fixturesFrom(path)).toThrow(
      `${path}: the fixtures hold more than 500000 values once their aliases are expanded`,
    );
  });

  it('takes a fixture whose aliases stay within the bound', () => {
    const text =
      'tenants:\n  - id: a\n    users: [&ada {id: ada, name: Ada, email: ada@x.example, role: admin}]\n  - id: b\n    users: [*ada]\n';
    expect(fixturesFrom(file('small-alias.yaml', text)).state.tenants).toHaveLength(2);
  });
});

describe('AI settings of a run (startMock’s ai, --ai-seconds)', () => {
  it('takes what updateAiSettings takes, and says why not otherwise', () => {
    expect(aiSettingsProblem({ generationMinSeconds: 0, generationMaxSeconds: 0 })).toBeNull();
    expect(aiSettingsProblem({ generationMaxSeconds: 0 })).toBe(
      'generationMinSeconds (10) must not exceed generationMaxSeconds (0); they are 10 and 30 unless given, so give both',
    );
    expect(aiSettingsProblem({ generationMinSeconds: -1 })).toBe('generationMinSeconds: must be >= 0');
    expect(aiSettingsProblem({ generationSeconds: 0 })).toBe(
      'generationSeconds: unknown field, not allowed here',
    );
  });

  it('are given to every tenant of a seed the platform loads, at start and at a reset', () => {
    const platform = new Platform(new VirtualClock({ start: START, frozen: true }), loadSeed, {
      ai: { generationMinSeconds: 0, generationMaxSeconds: 0 },
    });
    platform.load(platform.seeds('demo'));
    expect(platform.tenant('demo').ai).toMatchObject({ generationMinSeconds: 0, generationMaxSeconds: 0 });
    platform.run('updateAiSettings', { tenantId: 'demo', patch: { generationMaxSeconds: 9 } });
    platform.run('reset', { seed: 'empty' });
    expect(platform.tenant('demo').ai).toMatchObject({ generationMinSeconds: 0, generationMaxSeconds: 0 });
    expect(TenantState.empty('x', 'x', 'x_site_key_0000000000').ai.generationMaxSeconds).toBe(30);
  });
});
