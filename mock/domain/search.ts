// Searches of the MCP read tools (seed 000, find_user and find_course): a case-insensitive substring
// of a user's name or e-mail, or of a course's name; at most `limit` results, with the total.
import type { Course, User } from './model.ts';
import type { TenantState } from './tenant-state.ts';

function firstMatches<T>(
  items: Iterable<T>,
  matches: (item: T) => boolean,
  limit: number,
): { found: T[]; total: number } {
  const found: T[] = [];
  let total = 0;
  for (const item of items) {
    if (!matches(item)) continue;
    total++;
    if (found.length < limit) found.push(item);
  }
  return { found, total };
}

export function searchUsers(t: TenantState, query: string, limit: number): { found: User[]; total: number } {
  return t.userSearch.search(query.toLowerCase(), limit);
}

export function searchCourses(
  t: TenantState,
  query: string,
  limit: number,
): { found: Course[]; total: number } {
  const needle = query.toLowerCase();
  return firstMatches(t.courses.values(), (c) => c.name.toLowerCase().includes(needle), limit);
}
