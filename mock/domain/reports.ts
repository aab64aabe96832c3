// The analytics of the MCP read tools (seed 000): compliance per course (get_compliance_status),
// the six statistics scopes (get_statistics), the leaderboard (get_leaderboard). Metric names and
// shapes are assumed (openapi/v2 `Statistics`); every figure is computed from state.
import { isExpired, statusOf } from './assignments.ts';
import { DAY } from './clock.ts';
import { notFound } from './errors.ts';
import type { TenantState } from './tenant-state.ts';

const count = <T>(items: Iterable<T>, test: (item: T) => boolean) => {
  let n = 0;
  for (const item of items) if (test(item)) n++;
  return n;
};
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

export function courseUserStatistics(t: TenantState, courseId: number, groupId: number | null, now: number) {
  if (!t.courses.has(courseId)) throw notFound(`course ${courseId}`);
  let assignments = t.assignmentsOfCourse(courseId);
  if (groupId !== null) {
    const group = t.groups.get(groupId);
    if (!group) throw notFound(`group ${groupId}`);
    const members = new Set(group.memberIds);
    assignments = assignments.filter((a) => members.has(a.userId));
  }
  const counts = { notStarted: 0, inProgress: 0, finished: 0, overdue: 0 };
  const users = assignments.flatMap((a) => {
    const user = t.users.get(a.userId);
    if (!user) return [];
    const status = statusOf(a, now);
    counts[status]++;
    return [
      {
        userId: user.id,
        name: user.name,
        email: user.email,
        status,
        progressValue: a.progressValue,
        resultValue: a.resultValue,
        deadlineAt: a.deadlineAt,
        finishedAt: a.finishedAt,
      },
    ];
  });
  return {
    courseId,
    groupId,
    assigned: users.length,
    done: counts.finished,
    inProgress: counts.inProgress,
    notStarted: counts.notStarted,
    overdue: counts.overdue,
    donePercent: percent(counts.finished, users.length),
    overduePercent: percent(counts.overdue, users.length),
    users,
  };
}

export const STATISTICS_SCOPES = [
  'overview',
  'publishing',
  'courseCreation',
  'activity',
  'insights',
  'tags',
] as const;
export type StatisticsScope = (typeof STATISTICS_SCOPES)[number];

/**
 * The figures of the scopes that come from assignments, in one pass over the table's rows, which
 * makes no record: building every assignment took 2–4 s a request at 5 M assignments, and any key
 * allowed to read statistics could ask for it again and again. The active users, a set of ids each,
 * are gathered only for the scope that shows them.
 */
function assignmentFigures(t: TenantState, now: number, activeUsers = false) {
  const since7 = now - 7 * DAY;
  const since30 = now - 30 * DAY;
  const active7 = new Set<number>();
  const active30 = new Set<number>();
  let finished = 0;
  let resultSum = 0;
  let progressSum = 0;
  let overdue = 0;
  let started30 = 0;
  let finished30 = 0;
  t.assignments.forEachRow((a) => {
    const started = a.startedAt ?? -1;
    const latest = Math.max(started, a.finishedAt ?? -1);
    if (activeUsers && latest >= since30) active30.add(a.userId);
    if (activeUsers && latest >= since7) active7.add(a.userId);
    if (started >= since30) started30++;
    progressSum += a.progressValue;
    if (a.finishedAt !== null) {
      finished++;
      resultSum += a.resultValue ?? 0;
      if (a.finishedAt >= since30) finished30++;
    }
    if (isExpired(a, now)) overdue++;
  });
  return {
    total: t.assignments.size,
    finished,
    resultSum,
    progressSum,
    overdue,
    started30,
    finished30,
    active7: active7.size,
    active30: active30.size,
  };
}

export function statistics(t: TenantState, scope: StatisticsScope, now: number): Record<string, number> {
  const courses = [...t.courses.values()];
  const since30 = now - 30 * DAY;
  const average = (sum: number, count: number) => (count ? Math.round(sum / count) : 0);
  switch (scope) {
    case 'overview': {
      const a = assignmentFigures(t, now);
      return {
        usersTotal: t.users.size,
        usersActive: t.users.size - count(t.users.keptUsers(), (u) => u.isBanned),
        coursesTotal: courses.length,
        coursesPublished: courses.filter((c) => !c.isDraft).length,
        assignmentsTotal: a.total,
        assignmentsFinished: a.finished,
        completionRate: percent(a.finished, a.total),
      };
    }
    case 'publishing':
      return {
        coursesPublished: courses.filter((c) => !c.isDraft).length,
        coursesDraft: courses.filter((c) => c.isDraft).length,
        publishedLast30Days: courses.filter((c) => (c.publishedAt ?? -1) >= since30).length,
      };
    case 'courseCreation':
      return {
        coursesCreated: courses.length,
        coursesCreatedLast30Days: courses.filter((c) => c.createdAt >= since30).length,
        coursesGeneratedByAi: [...t.jobs.values()].filter((j) => j.result).length,
      };
    case 'activity': {
      const a = assignmentFigures(t, now, true);
      return {
        activeUsersLast7Days: a.active7,
        activeUsersLast30Days: a.active30,
        coursesStartedLast30Days: a.started30,
        coursesFinishedLast30Days: a.finished30,
      };
    }
    case 'insights': {
      const a = assignmentFigures(t, now);
      return {
        averageResult: average(a.resultSum, a.finished),
        averageProgress: average(a.progressSum, a.total),
        overdueAssignments: a.overdue,
        overdueRate: percent(a.overdue, a.total),
      };
    }
    case 'tags':
      // Courses carry no tags in this platform model: the counters are honest zeros.
      return { tagsTotal: 0, coursesTagged: 0, coursesUntagged: courses.length };
  }
}

/** Top learners: by completed courses, then average result; `points` is the sum of their results. */
export function leaderboard(t: TenantState, limit: number) {
  const leaders = t
    .rankedLeaders()
    .slice(0, limit)
    .flatMap((id) => {
      const user = t.users.get(id);
      const stats = t.userStats.get(id);
      return user && stats
        ? [
            {
              user,
              points: stats.resultSum,
              coursesCompleted: stats.finished,
              averageResult: Math.round(stats.resultSum / stats.finished),
            },
          ]
        : [];
    });
  let rank = 0;
  return leaders.map((l, i) => {
    const previous = leaders[i - 1];
    if (
      !previous ||
      previous.coursesCompleted !== l.coursesCompleted ||
      previous.averageResult !== l.averageResult
    )
      rank = i + 1;
    return {
      rank,
      user: { id: l.user.id, name: l.user.name, email: l.user.email },
      points: l.points,
      coursesCompleted: l.coursesCompleted,
      averageResult: l.averageResult,
    };
  });
}
