// Statistics (seed 001, "Statistics" and GET /groups/{groupId}/statistics). The answers come from
// aggregates that TenantState keeps on every write; here they are checked against a brute-force
// computation over the records, after many writes, and the leader ranking is checked to be cached.
import { describe, expect, it } from 'vitest';
import { loadSeed } from '../seed/index.ts';
import { assign, finishCourse } from './assignments.ts';
import { SITE_KEY } from './audit.ts';
import { DAY, VirtualClock } from './clock.ts';
import { addMember, createGroup } from './groups.ts';
import type { Course } from './model.ts';
import { Platform } from './platform.ts';
import { groupStatistics, LEADERS_LIMIT, platformStatistics, STATISTICS_LIST_LIMIT } from './statistics.ts';
import { TenantState } from './tenant-state.ts';
import { createUser } from './users.ts';

function demoPlatform() {
  const seed = loadSeed('demo');
  const platform = new Platform(new VirtualClock({ start: seed.now, frozen: true }), loadSeed);
  platform.load(seed);
  return platform;
}

interface Summary {
  statistics: { coursesCount: number; assignedCoursesCount: number; groupsCount: number; usersCount: number };
  usersWithoutActivity: string[];
  usersWithoutResults: string[];
  leaders: [apiId: string, coursesCount: number, resultValue: number][];
  unassignedCourses: number[];
}

/** What the statistics must say, computed from the records alone. */
function bruteForce(t: TenantState): Summary {
  const users = [...t.users.values()].sort((a, b) => a.id - b.id);
  const courses = [...t.courses.values()].sort((a, b) => a.id - b.id);
  const assignments = [...t.assignments.values()];
  const started = new Set(assignments.filter((a) => a.startedAt !== null).map((a) => a.userId));
  const results = new Map<number, number[]>();
  for (const a of assignments) {
    if (a.finishedAt !== null) results.set(a.userId, [...(results.get(a.userId) ?? []), a.resultValue ?? 0]);
  }
  const assigned = new Set(assignments.map((a) => a.courseId));
  const ranked = users
    .filter((u) => results.has(u.id))
    .map((u) => {
      const r = results.get(u.id) ?? [];
      return { u, count: r.length, average: r.reduce((x, y) => x + y, 0) / r.length };
    })
    .sort((a, b) => b.count - a.count || b.average - a.average || a.u.id - b.u.id);
  return {
    statistics: {
      coursesCount: courses.length,
      assignedCoursesCount: courses.filter((c) => assigned.has(c.id)).length,
      groupsCount: t.groups.size,
      usersCount: users.length,
    },
    usersWithoutActivity: users
      .filter((u) => !started.has(u.id))
      .slice(0, STATISTICS_LIST_LIMIT)
      .map((u) => u.apiId),
    usersWithoutResults: users
      .filter((u) => !results.has(u.id))
      .slice(0, STATISTICS_LIST_LIMIT)
      .map((u) => u.apiId),
    leaders: ranked.slice(0, LEADERS_LIMIT).map((l) => [l.u.apiId, l.count, Math.round(l.average)]),
    unassignedCourses: courses
      .filter((c) => !assigned.has(c.id))
      .slice(0, STATISTICS_LIST_LIMIT)
      .map((c) => c.id),
  };
}

function summary(t: TenantState): Summary {
  const s = platformStatistics(t);
  return {
    statistics: s.statistics,
    usersWithoutActivity: s.usersWithoutActivity.map((u) => u.apiId),
    usersWithoutResults: s.usersWithoutResults.map((u) => u.apiId),
    leaders: s.leaders.map((l) => [l.user.apiId, l.coursesCount, l.resultValue]),
    unassignedCourses: s.unassignedCourses.map((c) => c.id),
  };
}

/** A small deterministic generator (mulberry32), so the sequence of writes is the same every run. */
function random(seed: number) {
  let a = seed;
  return (n: number) => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4_294_967_296) * n);
  };
}

/** Many writes through the platform's commands: new users, assignments to users and groups, progress. */
function writeMany(platform: Platform, steps: number, seed: number): void {
  const pick = random(seed);
  const t = platform.tenant('demo');
  for (let i = 0; i < steps; i++) {
    const users = [...t.users.values()];
    const courseIds = [...t.courses.keys()];
    const groupIds = [...t.groups.keys()];
    const anyCourse = () => courseIds[pick(courseIds.length)] ?? 1;
    const anyUser = () => users[pick(users.length)] ?? users[0];
    platform.run('advanceClock', { seconds: 60 + pick(600) });
    try {
      switch (pick(6)) {
        case 0:
          platform.run('createUser', {
            tenantId: 'demo',
            input: {
              name: `Generated ${i}`,
              email: `gen${i}@demo.example`,
              password: 'password-123',
              roleAlias: 'learner',
              courses: pick(2) ? [anyCourse()] : [],
              groups: pick(3) === 0 ? [groupIds[pick(groupIds.length)] ?? 1] : [],
            },
          });
          break;
        case 1:
          platform.run('assignCourse', {
            tenantId: 'demo',
            courseId: anyCourse(),
            users: [anyUser()?.apiId ?? 'ada', anyUser()?.apiId ?? 'ada'],
            groups: pick(4) === 0 ? [groupIds[pick(groupIds.length)] ?? 1] : [],
          });
          break;
        case 2: {
          const a = [...t.assignments.values()][pick(t.assignments.size)];
          if (a)
            platform.run('recordProgress', {
              tenantId: 'demo',
              userId: a.userId,
              courseId: a.courseId,
              action: 'start',
            });
          break;
        }
        case 3:
        case 4: {
          const a = [...t.assignments.values()][pick(t.assignments.size)];
          if (a)
            platform.run('recordProgress', {
              tenantId: 'demo',
              userId: a.userId,
              courseId: a.courseId,
              action: 'finish',
              resultValue: 40 + pick(61),
            });
          break;
        }
        default:
          platform.run('createGroup', { tenantId: 'demo', input: { name: `Group ${i}` } });
      }
    } catch {
      // A refused write (a course finished twice, say) is part of the sequence: it must change nothing.
    }
  }
}

describe('platformStatistics agrees with a brute-force computation', () => {
  it('on the demo seed as loaded (seed 001, GET /statistics)', () => {
    const t = demoPlatform().tenant('demo');
    expect(summary(t)).toEqual(bruteForce(t));
    // The demo seed has finishers, people without activity and courses nobody is assigned to.
    expect(summary(t).leaders.length).toBeGreaterThan(0);
    expect(summary(t).usersWithoutActivity.length).toBeGreaterThan(0);
    expect(summary(t).unassignedCourses.length).toBeGreaterThan(0);
  });

  it.each([1, 2, 3])(
    'after a sequence of 400 writes (sequence %i), checked every 50 writes (seed 001, GET /statistics: usersWithoutActivity, usersWithoutResults, leaders, unassignedCourses)',
    (seed) => {
      const platform = demoPlatform();
      const t = platform.tenant('demo');
      for (let round = 0; round < 8; round++) {
        writeMany(platform, 50, seed * 100 + round);
        expect(summary(t)).toEqual(bruteForce(t));
      }
      // The sequence did reach the interesting cases: a full leader board and some completions.
      expect(summary(t).leaders).toHaveLength(LEADERS_LIMIT);
      expect(summary(t).statistics.assignedCoursesCount).toBeGreaterThan(10);
    },
  );

  it('after the state is reloaded from its snapshot, as a restart does (seed 001, GET /statistics)', () => {
    const platform = demoPlatform();
    writeMany(platform, 200, 42);
    const reloaded = new TenantState(structuredClone(platform.tenant('demo').toData()));
    expect(summary(reloaded)).toEqual(bruteForce(reloaded));
    expect(summary(reloaded)).toEqual(summary(platform.tenant('demo')));
  });

  it('ranks leaders by completed courses first, then by average result (seed 001, GET /statistics: leaders ranked by completion count and average score)', () => {
    const t = TenantState.empty('t', 'T', 'key');
    for (let id = 1; id <= 3; id++) t.addCourse(course(id));
    const people = ['few', 'high', 'low', 'tie'].map((apiId) =>
      createUser(
        t,
        SITE_KEY,
        { id: apiId, name: apiId, email: `${apiId}@x.example`, password: 'password1', roleAlias: 'learner' },
        0,
      ),
    );
    const results: Record<string, number[]> = { few: [100], high: [90, 80], low: [50, 60], tie: [85, 85] };
    for (const u of people) {
      (results[u.apiId] ?? []).forEach((r, i) => {
        assign(t, u.id, i + 1, {}, 0);
        finishCourse(t, SITE_KEY, u.id, i + 1, r, 0);
      });
    }
    // high and tie share average 85: the earlier user (lower id) comes first.
    expect(summary(t).leaders).toEqual([
      ['high', 2, 85],
      ['tie', 2, 85],
      ['low', 2, 55],
      ['few', 1, 100],
    ]);
  });
});

describe('the leader ranking is computed once per change (regression guard: statistics stay cheap)', () => {
  it('reading the statistics many times ranks the leaders once (seed 001, GET /statistics: response time grows with platform size)', () => {
    const t = demoPlatform().tenant('demo');
    const before = t.leaderRankings;
    for (let i = 0; i < 100; i++) platformStatistics(t);
    expect(t.leaderRankings - before).toBe(1);
  });

  it('a finished course invalidates the ranking once; other writes do not (seed 001, Events: course.finished)', () => {
    const platform = demoPlatform();
    const t = platform.tenant('demo');
    platformStatistics(t);
    const before = t.leaderRankings;
    const lena = t.userByApiId('lena');
    if (!lena) throw new Error('lena missing from the demo seed');
    // Writes that do not complete a course keep the ranking.
    platform.run('assignCourse', { tenantId: 'demo', courseId: 10, users: ['lena'], groups: [] });
    platform.run('recordProgress', { tenantId: 'demo', userId: lena.id, courseId: 10, action: 'start' });
    for (let i = 0; i < 10; i++) platformStatistics(t);
    expect(t.leaderRankings).toBe(before);
    platform.run('recordProgress', {
      tenantId: 'demo',
      userId: lena.id,
      courseId: 10,
      action: 'finish',
      resultValue: 70,
    });
    for (let i = 0; i < 10; i++) platformStatistics(t);
    expect(t.leaderRankings).toBe(before + 1);
  });
});

function course(id: number): Course {
  return {
    id,
    name: `Course ${id}`,
    annotation: '',
    description: '',
    isDraft: false,
    createdAt: 0,
    updatedAt: 0,
    publishedAt: 0,
    ownerId: 1,
    sharedWith: [],
    attachedFiles: [],
    settings: { sequential: false, hasCertificate: false, certificateValidDays: null, passingScore: 60 },
    structure: { elements: [], transitions: [] },
    experts: [],
  };
}

describe('groupStatistics', () => {
  it('agrees with a brute-force computation over the group’s members, after many writes (seed 001, GET /groups/{groupId}/statistics)', () => {
    const platform = demoPlatform();
    writeMany(platform, 300, 7);
    const t = platform.tenant('demo');
    const data = structuredClone(t.toData());
    for (const group of t.groups.values()) {
      const members = new Set(group.memberIds);
      // The group's members alone, as a tenant of their own (a copy: the live state stays untouched).
      const scoped = new TenantState({
        ...data,
        users: data.users.filter((u) => members.has(u.id)),
        assignments: data.assignments.filter((a) => members.has(a.userId)),
      });
      const want = bruteForce(scoped);
      const s = groupStatistics(t, group);
      expect(s.group).toBe(group);
      expect(s.usersWithoutActivity.map((u) => u.apiId)).toEqual(want.usersWithoutActivity);
      expect(s.usersWithoutResults.map((u) => u.apiId)).toEqual(want.usersWithoutResults);
      expect(s.leaders.map((l) => l.coursesCount)).toEqual(want.leaders.map((l) => l[1]));
    }
  });

  it('ranks a group’s leaders by their exact average, as the platform ranking does (seed 001, Groups: leaders; Statistics: ranked by average score)', () => {
    const t = TenantState.empty('t', 'T', 'key');
    for (let id = 1; id <= 2; id++) t.addCourse(course(id));
    const [lower, higher] = ['lower', 'higher'].map((apiId) =>
      createUser(
        t,
        SITE_KEY,
        { id: apiId, name: apiId, email: `${apiId}@x.example`, password: 'password1', roleAlias: 'learner' },
        0,
      ),
    );
    if (!lower || !higher) throw new Error('setup');
    const group = createGroup(t, SITE_KEY, { name: 'G' }, 0);
    addMember(t, group.id, lower.id, 0);
    addMember(t, group.id, higher.id, 0);
    for (const [u, r] of [
      [lower, [80, 81]],
      [higher, [81, 81]],
    ] as const) {
      r.forEach((result, i) => {
        assign(t, u.id, i + 1, {}, 0);
        finishCourse(t, SITE_KEY, u.id, i + 1, result, DAY);
      });
    }
    const platformOrder = platformStatistics(t).leaders.map((l) => l.user.apiId);
    expect(platformOrder).toEqual(['higher', 'lower']);
    expect(groupStatistics(t, group).leaders.map((l) => l.user.apiId)).toEqual(platformOrder);
  });
});
