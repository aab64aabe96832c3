// The analytics of the MCP read tools (seed 000): compliance per course (get_compliance_status),
// the six statistics scopes (get_statistics), the leaderboard (get_leaderboard). Metric names and
// shapes are assumed (openapi/v2 `Statistics`); every figure is computed from state.
import { isExpired, statusOf } from './assignments.ts';
import { DAY } from './clock.ts';
import { notFound } from './errors.ts';
import type { Assignment } from './model.ts';
import type { TenantState } from './tenant-state.ts';

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

export function statistics(t: TenantState, scope: StatisticsScope, now: number): Record<string, number> {
  const courses = [...t.courses.values()];
  const assignments = [...t.assignments.values()];
  const since = (days: number) => now - days * DAY;
  const activeSince = (from: number) =>
    new Set(
      assignments
        .filter((a) => (a.startedAt ?? -1) >= from || (a.finishedAt ?? -1) >= from)
        .map((a) => a.userId),
    ).size;
  const finished = assignments.filter((a) => a.finishedAt !== null);
  switch (scope) {
    case 'overview':
      return {
        usersTotal: t.users.size,
        usersActive: [...t.users.values()].filter((u) => !u.isBanned).length,
        coursesTotal: courses.length,
        coursesPublished: courses.filter((c) => !c.isDraft).length,
        assignmentsTotal: assignments.length,
        assignmentsFinished: finished.length,
        completionRate: percent(finished.length, assignments.length),
      };
    case 'publishing':
      return {
        coursesPublished: courses.filter((c) => !c.isDraft).length,
        coursesDraft: courses.filter((c) => c.isDraft).length,
        publishedLast30Days: courses.filter((c) => (c.publishedAt ?? -1) >= since(30)).length,
      };
    case 'courseCreation':
      return {
        coursesCreated: courses.length,
        coursesCreatedLast30Days: courses.filter((c) => c.createdAt >= since(30)).length,
        coursesGeneratedByAi: [...t.jobs.values()].filter((j) => j.result).length,
      };
    case 'activity':
      return {
        activeUsersLast7Days: activeSince(since(7)),
        activeUsersLast30Days: activeSince(since(30)),
        coursesStartedLast30Days: assignments.filter((a) => (a.startedAt ?? -1) >= since(30)).length,
        coursesFinishedLast30Days: finished.filter((a) => (a.finishedAt ?? -1) >= since(30)).length,
      };
    case 'insights': {
      const overdue = assignments.filter((a) => isExpired(a, now)).length;
      const average = (values: number[]) =>
        values.length ? Math.round(values.reduce((s, v) => s + v, 0) / values.length) : 0;
      return {
        averageResult: average(finished.map((a: Assignment) => a.resultValue ?? 0)),
        averageProgress: average(assignments.map((a) => a.progressValue)),
        overdueAssignments: overdue,
        overdueRate: percent(overdue, assignments.length),
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
