// Statistics of v1 (seed 001, `/statistics` and group statistics). Read from the aggregates that
// TenantState keeps on each write, so the cost does not grow with the number of users — the seed
// warns that the real platform's does.
import type { Group, User } from './model.ts';
import type { TenantState } from './tenant-state.ts';

/** The user lists of a statistics answer are capped (an assumed choice: the seed shows no paging). */
export const STATISTICS_LIST_LIMIT = 100;
export const LEADERS_LIMIT = 10;

const take = <T>(items: Iterable<T>, n: number): T[] => {
  const out: T[] = [];
  for (const item of items) {
    if (out.length >= n) break;
    out.push(item);
  }
  return out;
};

export interface Leader {
  user: User;
  coursesCount: number;
  resultValue: number;
}

const leaderOf = (t: TenantState, id: number): Leader | null => {
  const user = t.users.get(id);
  const stats = t.userStats.get(id);
  return user && stats
    ? { user, coursesCount: stats.finished, resultValue: Math.round(stats.resultSum / stats.finished) }
    : null;
};

export function platformStatistics(t: TenantState) {
  const users = (ids: Iterable<number>) =>
    take(ids, STATISTICS_LIST_LIMIT).flatMap((id) => t.users.get(id) ?? []);
  return {
    statistics: {
      coursesCount: t.courses.size,
      assignedCoursesCount: t.courses.size - t.unassignedCourses.size,
      groupsCount: t.groups.size,
      usersCount: t.users.size,
    },
    usersWithoutActivity: users(t.usersWithoutActivity),
    usersWithoutResults: users(t.usersWithoutResults),
    leaders: take(t.rankedLeaders(), LEADERS_LIMIT).flatMap((id) => leaderOf(t, id) ?? []),
    unassignedCourses: take(t.unassignedCourses, STATISTICS_LIST_LIMIT).flatMap(
      (id) => t.courses.get(id) ?? [],
    ),
  };
}

/** A group's statistics, over its members only, from the per-user aggregates. */
export function groupStatistics(t: TenantState, group: Group) {
  const members = group.memberIds.flatMap((id) => t.users.get(id) ?? []);
  const stats = (u: User) => t.userStats.get(u.id);
  // The same order as the platform-wide ranking: by completions, then the exact (unrounded) average.
  const average = (u: User) => {
    const s = stats(u);
    return s?.finished ? s.resultSum / s.finished : 0;
  };
  const leaders = members
    .filter((u) => (stats(u)?.finished ?? 0) > 0)
    .flatMap((u) => leaderOf(t, u.id) ?? [])
    .sort(
      (a, b) => b.coursesCount - a.coursesCount || average(b.user) - average(a.user) || a.user.id - b.user.id,
    );
  return {
    group,
    usersWithoutActivity: members
      .filter((u) => (stats(u)?.started ?? 0) === 0)
      .slice(0, STATISTICS_LIST_LIMIT),
    usersWithoutResults: members
      .filter((u) => (stats(u)?.finished ?? 0) === 0)
      .slice(0, STATISTICS_LIST_LIMIT),
    leaders: leaders.slice(0, LEADERS_LIMIT),
  };
}
