// Regression guards that are not timings. Reads that the seed warns grow with the
// platform (statistics) come from aggregates kept on each write, repeated searches are not scanned
// again, and request validators are compiled once, when the app is built — never per request.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SpecSchemas } from '../../lib/openapi-schemas.ts';
import { assignmentsOfGroup, isExpired } from '../../mock/domain/assignments.ts';
import { upsertAttributes } from '../../mock/domain/attributes.ts';
import { DAY, VirtualClock } from '../../mock/domain/clock.ts';
import type { Assignment, Group, User } from '../../mock/domain/model.ts';
import { Platform } from '../../mock/domain/platform.ts';
import { STATISTICS_SCOPES, type StatisticsScope, statistics } from '../../mock/domain/reports.ts';
import { groupStatistics, platformStatistics } from '../../mock/domain/statistics.ts';
import type { TenantState } from '../../mock/domain/tenant-state.ts';
import { START } from '../../mock/seed/demo.ts';
import { loadSeed } from '../../mock/seed/index.ts';
import { scaleTenant } from '../../mock/seed/scale.ts';
import { loadSpecs } from '../../mock/specs.ts';
import { type Harness, startHarness } from '../mock/harness.ts';

function scalePlatform(users: number) {
  const platform = new Platform(new VirtualClock({ start: START, frozen: true }), loadSeed);
  platform.load(
    { now: START, tenants: [scaleTenant({ users, courses: 200, assignments: users * 5 })] },
    true,
  );
  return platform;
}

describe('statistics come from aggregates (seed 001: "response time grows with platform size" — not here)', () => {
  it('reading /statistics touches no user or assignment record in bulk', () => {
    const t = scalePlatform(20_000).tenant('demo');
    platformStatistics(t); // the leader ranking is built once, lazily
    const users = vi.spyOn(t.users, 'values');
    const assignments = vi.spyOn(t.assignments, 'values');
    for (let i = 0; i < 50; i++) platformStatistics(t);
    expect(users).not.toHaveBeenCalled();
    expect(assignments).not.toHaveBeenCalled();
  });

  it('ranks the leaders once per change of completions, not once per read', () => {
    const platform = scalePlatform(5_000);
    const t = platform.tenant('demo');
    for (let i = 0; i < 20; i++) platformStatistics(t);
    expect(t.leaderRankings).toBe(1);
    const a = t.assignmentsOfUser(1).find((x) => x.finishedAt === null);
    if (!a) throw new Error('the scale seed gives user 1 an unfinished assignment');
    t.markFinished(a, START, 80);
    for (let i = 0; i < 20; i++) platformStatistics(t);
    expect(t.leaderRankings).toBe(2);
  });

  it("a group's statistics read only that group's members", () => {
    const t = scalePlatform(20_000).tenant('demo');
    const users = vi.spyOn(t.users, 'values');
    groupStatistics(t, t.groups.get(2) as never);
    expect(users).not.toHaveBeenCalled();
  });
  it("a group's assignments (seed 000, list_assignments by groupId) make records only for the group's courses", () => {
    const t = scalePlatform(20_000).tenant('demo');
    const group = t.groups.get(2) as Group;
    const { courseId } = t.assignmentsOfUser(group.memberIds[0] as number)[0] as Assignment;
    group.courseIds = [courseId];
    const expected = group.memberIds.flatMap((id) =>
      t.assignmentsOfUser(id).filter((a) => a.courseId === courseId),
    );
    expect(expected.length).toBeGreaterThan(0);
    const made = vi.spyOn(t.assignments, 'record');
    expect(assignmentsOfGroup(t, group)).toEqual(expected);
    expect(made).toHaveBeenCalledTimes(expected.length);
    group.courseIds = [];
    expect(assignmentsOfGroup(t, group)).toEqual([]);
    expect(made).toHaveBeenCalledTimes(expected.length);
  });

  it('renaming a user attribute (seed 001, POST /custom/attributes/users) moves the values without reading every user', () => {
    const t = scalePlatform(20_000).tenant('demo');
    const field = { name: 'Badge', type: 1 as const, position: 1, isRequired: false, isVisible: true };
    const [badge] = upsertAttributes(t, 'user', [{ ...field, apiId: 'badge' }]);
    (t.editUser(42) as User).attributes.badge = 'B-42';
    const users = vi.spyOn(t.users, 'values');
    upsertAttributes(t, 'user', [{ ...field, id: badge?.id, apiId: 'badgeNumber' }]);
    expect(users).not.toHaveBeenCalled();
    expect(t.users.get(42)?.attributes).toEqual({ badgeNumber: 'B-42' });
    expect(t.users.get(43)?.attributes).toEqual({});
  });

  it('v2 statistics (seed 000, get_statistics) make no user or assignment record, and equal their record-by-record definition', () => {
    const t = scalePlatform(20_000).tenant('demo');
    (t.editUser(7) as User).isBanned = true;
    const unfinished = t.assignmentsOfUser(1).find((a) => a.finishedAt === null);
    if (!unfinished) throw new Error('the scale seed gives user 1 an unfinished assignment');
    t.markFinished(unfinished, START - 3 * DAY, 64);
    // Before, during and after the seed's activity, so that every window and deadline test counts.
    const moments = [START - 45 * DAY, START - 30 * DAY, START - 10 * DAY, START, START + 400 * DAY];
    const expected = moments.map((now) => STATISTICS_SCOPES.map((scope) => recordByRecord(t, scope, now)));
    const users = vi.spyOn(t.users, 'values');
    const assignments = vi.spyOn(t.assignments, 'values');
    const actual = moments.map((now) => STATISTICS_SCOPES.map((scope) => statistics(t, scope, now)));
    expect(users).not.toHaveBeenCalled();
    expect(assignments).not.toHaveBeenCalled();
    expect(actual).toEqual(expected);
    expect(actual[4]?.[0]).toMatchObject({ usersActive: 19_999, assignmentsTotal: 100_000 });
  });
});

/** Each v2 statistics figure as the contract describes it, over every user and assignment record. */
function recordByRecord(t: TenantState, scope: StatisticsScope, now: number): Record<string, number> {
  const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);
  const average = (values: number[]) =>
    values.length ? Math.round(values.reduce((sum, v) => sum + v, 0) / values.length) : 0;
  const courses = [...t.courses.values()];
  const assignments = [...t.assignments.values()];
  const finished = assignments.filter((a) => a.finishedAt !== null);
  const since = (days: number) => now - days * DAY;
  const activeSince = (from: number) =>
    new Set(
      assignments
        .filter((a) => (a.startedAt ?? -1) >= from || (a.finishedAt ?? -1) >= from)
        .map((a) => a.userId),
    ).size;
  const overdue = assignments.filter((a) => isExpired(a, now)).length;
  const byScope: Record<StatisticsScope, Record<string, number>> = {
    overview: {
      usersTotal: t.users.size,
      usersActive: [...t.users.values()].filter((u) => !u.isBanned).length,
      coursesTotal: courses.length,
      coursesPublished: courses.filter((c) => !c.isDraft).length,
      assignmentsTotal: assignments.length,
      assignmentsFinished: finished.length,
      completionRate: percent(finished.length, assignments.length),
    },
    publishing: {
      coursesPublished: courses.filter((c) => !c.isDraft).length,
      coursesDraft: courses.filter((c) => c.isDraft).length,
      publishedLast30Days: courses.filter((c) => (c.publishedAt ?? -1) >= since(30)).length,
    },
    courseCreation: {
      coursesCreated: courses.length,
      coursesCreatedLast30Days: courses.filter((c) => c.createdAt >= since(30)).length,
      coursesGeneratedByAi: [...t.jobs.values()].filter((j) => j.result).length,
    },
    activity: {
      activeUsersLast7Days: activeSince(since(7)),
      activeUsersLast30Days: activeSince(since(30)),
      coursesStartedLast30Days: assignments.filter((a) => (a.startedAt ?? -1) >= since(30)).length,
      coursesFinishedLast30Days: finished.filter((a) => (a.finishedAt ?? -1) >= since(30)).length,
    },
    insights: {
      averageResult: average(finished.map((a) => a.resultValue ?? 0)),
      averageProgress: average(assignments.map((a) => a.progressValue)),
      overdueAssignments: overdue,
      overdueRate: percent(overdue, assignments.length),
    },
    tags: { tagsTotal: 0, coursesTagged: 0, coursesUntagged: courses.length },
  };
  return byScope[scope];
}

describe('the HTTP layer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("compiles an operation's request validators once, on its first request, never again", async () => {
    const compile = vi.spyOn(SpecSchemas.prototype, 'validator');
    const requestSchemasCompiled = () =>
      compile.mock.calls
        .map(([at]) => JSON.stringify(at))
        .filter((k) => k.includes('requestBody') || k.includes('parameters'));
    const round = async (i: number) => {
      await h.v1('/courses/1');
      await h.v1('/users', {
        method: 'POST',
        json: { name: 'Guard', email: `guard${i}@example.test`, password: 'password1', roleAlias: 'learner' },
      });
      await h.v2('/users?query=le');
      await h.v2('/courses/1/statistics/users');
      await h.admin('/clock');
    };
    await round(0);
    const first = requestSchemasCompiled();
    expect(first).toEqual(expect.arrayContaining([expect.stringContaining('"/users","post","requestBody"')]));
    for (let i = 1; i < 5; i++) await round(i);
    // Response validation (on in tests) looks its schemas up on every answer; request schemas never again.
    expect(requestSchemasCompiled()).toEqual(first);
    compile.mockRestore();
  });

  it('a second app over the same contracts compiles no validator again, and no app can change the contracts it shares', async () => {
    await h.v1('/courses/1');
    const compile = vi.spyOn(SpecSchemas.prototype as unknown as { ajvCompile: () => void }, 'ajvCompile');
    const again = await startHarness();
    try {
      expect((await again.v1('/courses/1')).status).toBe(200);
      expect(compile).not.toHaveBeenCalled();
    } finally {
      await again.close();
    }
    const paths = loadSpecs().v1.paths as Record<string, unknown>;
    expect(() => {
      paths['/courses'] = {};
    }).toThrow(TypeError);
  });

  it('answers a read asked for again from the answer cache until a write changes the state', async () => {
    const t = h.platform.tenant('demo');
    const scans = vi.spyOn(t.userSearch, 'search');
    // The first ask is answered, the second kept (answer-cache.ts: kept the second time), the rest served.
    await h.v2('/users?query=lena');
    await h.v2('/users?query=lena');
    const kept = scans.mock.calls.length;
    expect(kept).toBeGreaterThan(0);
    await h.v2('/users?query=lena');
    await h.v2('/users?query=lena');
    expect(scans.mock.calls.length).toBe(kept);
    await h.v1('/groups', { method: 'POST', json: { name: 'A write' } });
    await h.v2('/users?query=lena');
    expect(scans.mock.calls.length).toBeGreaterThan(kept);
  });

  // The cache is looked up before validation (mock/http/contract.ts), so it must never stand in for it.
  it('refuses an invalid read every time it is asked, however often the valid one beside it is served (seed 000, Errors: 400 VALIDATION_ERROR)', async () => {
    for (let i = 0; i < 4; i++) {
      const valid = await h.v2('/users?query=lena&limit=1');
      expect(valid.status).toBe(200);
      expect(valid.body.users).toHaveLength(1);
      const invalid = await h.v2('/users?query=lena&limit=0');
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(invalid.body.error).toContain('limit');
    }
  });
});
