// The leaders of v1's statistics, of the platform and of a group (seed 001, "Endpoints > Statistics"
// and "> Groups": leaders {coursesCount, resultValue, user}, resultValue the average of a user's
// results, 0-100): each leader has its user, and its resultValue lies within that user's results.
// Read-only; a group's leaders are found through v2 (v1 lists no groups).
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check, Verdict } from '../../types.ts';
import { list, obj } from '../common/body.ts';
import { keyHeaders } from '../common/discover.ts';
import { judge, mustPass, readAssumed } from '../common/judge.ts';
import { userAssignments } from './assignments.ts';
import { groupStatistics } from './groups.ts';

/**
 * A group whose statistics list leaders: v1 lists no groups, so they are found in the memberships
 * get_user shows of the users find_user lists (read through the kit's names), their statistics read
 * through v1 until one has leaders.
 */
const groupWithLeaders = (ctx: Context) =>
  ctx.once('v1data.groupWithLeaders', async () => {
    const headers = keyHeaders(ctx, 'getUser');
    const found = await ctx.v2.call('searchUsers', { query: { query: '@', limit: 50 }, headers });
    const users = readAssumed(found, 'the users found', (b: { users?: { id: number }[] }) => b.users);
    const seen = new Set<number>();
    for (const u of users.slice(0, 10)) {
      const detail = await ctx.v2.call('getUser', { params: { userId: u.id }, headers });
      for (const g of list(obj(detail.body).groups)) {
        const id = g.id;
        if (typeof id !== 'number' || seen.has(id) || seen.size >= 8) continue;
        seen.add(id);
        const stats = await groupStatistics(ctx, id);
        if (list(stats.body.leaders).length) return { id, ...stats };
      }
    }
    throw new Incomplete(
      `none of the groups of the first users find_user lists (${[...seen].join(', ') || 'none found'}) has leaders: nothing to judge`,
    );
  });

/** Leaders (platform or group): each has its `user`, and `resultValue` is an average of results. */
async function judgeLeaders(ctx: Context, e: Exchange, where: string): Promise<Verdict> {
  const leaders = Array.isArray(obj(e.body).leaders) ? (obj(e.body).leaders as unknown[]) : [];
  if (!leaders.length) throw new Incomplete(`${where} has no leaders: nothing to judge`);
  const missing = leaders.findIndex((l) => !obj(l).user || typeof obj(l).user !== 'object');
  if (missing >= 0)
    return fail(
      `leader ${missing + 1} of ${where} has no user`,
      evidenceOf(e, 'each leader {coursesCount, resultValue, user}'),
    );
  // The average of a user's results lies between their lowest and highest result (±1 for rounding).
  for (const leader of leaders.slice(0, 3).map(obj)) {
    const userId = readAssumed(e, "a leader's user id", () => {
      const id = obj(leader.user).id;
      return typeof id === 'string' ? id : undefined;
    });
    const mine = await userAssignments(ctx, userId);
    const results = mine.assignments
      .map((a) => a.resultValue)
      .filter((v): v is number => typeof v === 'number');
    if (!results.length) continue;
    const [low, high] = [Math.min(...results), Math.max(...results)];
    const value = leader.resultValue as number;
    if (value < low - 1 || value > high + 1)
      return fail(
        `${where}: leader ${userId} has resultValue ${value}, outside the results of their assignments (${low}-${high}): not their average`,
        evidenceOf(mine.e, `results around ${value}`),
      );
  }
  return pass();
}

export const v1LeaderChecks: Check[] = [
  {
    id: 'v1.groups.statistics.leaders',
    area: 'v1.groups',
    level: 'MUST',
    rules: ['001/groups.statistics-leaders', '001/groups.statistics', '001/groups.image'],
    title: "a group's leaders are {coursesCount, resultValue, user}, resultValue an average of results",
    needs: { apiKey: true, mcpScope: 'read' },
    run: async (ctx) => {
      const group = await groupWithLeaders(ctx);
      return judgeLeaders(ctx, group.e, `group ${group.id}`);
    },
  },
  {
    id: 'v1.statistics.leader-fields',
    area: 'v1.statistics',
    level: 'MUST',
    rules: ['001/statistics.leader-fields'],
    title: 'each leader of GET /statistics has coursesCount, resultValue (an average, 0-100) and user',
    needs: { apiKey: true },
    run: async (ctx) => {
      const e = await ctx.v1.call('getStatistics', { headers: ctx.v1Headers() });
      mustPass(judge(ctx.v1, 'getStatistics', e, [200]));
      return judgeLeaders(ctx, e, 'GET /statistics');
    },
  },
];
