// v2 reads (seed 000, "Read tools" and "Limits"): every read operation against the contract, each
// with a key that is offered the tool; the search rule verified on the results (a substring of the
// name or e-mail, case-insensitive); the documented limits; the leaderboard's order. Most v2 payloads
// are the kit's choice (the seed: "result payload fields of read tools: not shown"), so a rule read
// through them makes the check incomplete, not failed, when the deployment names its fields
// otherwise. The audit log's reads are in ./audit.ts.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { keyHeaders, ownerId, v2CourseId, v2GroupId } from '../common/discover.ts';
import { contractCheck, judge, mustPass, type Request, readAssumed } from '../common/judge.ts';

export const needs = { mcpScope: 'read' as const };
export const area = (a: string) => `v2.${a}`;

/** A contract check of one read operation, with a key offered the tool. */
export const read = (
  id: string,
  a: string,
  operationId: string,
  rules: string[],
  title: string,
  request: (ctx: Context, headers: Record<string, string>) => Promise<Request>,
) =>
  contractCheck({
    id,
    area: area(a),
    level: 'MUST',
    rules,
    title,
    needs,
    api: 'v2',
    operationId,
    request: async (ctx) => {
      const headers = keyHeaders(ctx, operationId);
      return { ...(await request(ctx, headers)), headers };
    },
  });

/** Calls a read operation with a key offered its tool; the check fails unless it answers 200 as documented. */
export const call = async (ctx: Context, operationId: string, req: Request) => {
  const e = await ctx.v2.callRaw(operationId, { ...req, headers: keyHeaders(ctx, operationId) });
  mustPass(judge(ctx.v2, operationId, e, [200]));
  return e;
};

type User = { id: number; name: string; email: string };
const usersOf = (e: Exchange) => readAssumed(e, 'the users found', (b: { users?: User[] }) => b.users);
const coursesOf = (e: Exchange) =>
  readAssumed(e, 'the courses found', (b: { courses?: { id: number; name: string }[] }) => b.courses);

/** The owner of the key used for find_user. */
const searcher = (ctx: Context) => {
  const headers = keyHeaders(ctx, 'searchUsers');
  const key = ctx.keys.find((k) => k.key === headers['x-mcp-key']);
  if (!key) throw new Incomplete('no MCP key was accepted');
  return key.user;
};

/**
 * Seed 000, Limits: asking for more than the maximum never yields more (a 400, or capped), and
 * without a limit no more than the default come.
 */
export function pageLimitChecks(
  id: string,
  a: string,
  operationId: string,
  rule: string,
  list: (e: Exchange) => unknown[],
  max: number,
  dflt: number,
  query: Record<string, string> = {},
  assumedName?: string,
): Check[] {
  return [
    {
      id: `${id}.limit-cap`,
      area: area(a),
      level: assumedName ? 'SHOULD' : 'MUST',
      rules: [rule],
      ...(assumedName ? { assumption: assumedName } : {}),
      title: `asking ${operationId} for ${max + 1} entries never yields more than ${max}`,
      needs,
      run: async (ctx) => {
        const e = await ctx.v2.callRaw(operationId, {
          query: { ...query, limit: max + 1 },
          headers: keyHeaders(ctx, operationId),
        });
        if (e.status >= 400 && e.status < 500) return judge(ctx.v2, operationId, e, [400]);
        mustPass(judge(ctx.v2, operationId, e, [200]));
        const n = list(e).length;
        return n <= max
          ? pass()
          : fail(`${n} entries for limit ${max + 1}`, evidenceOf(e, `400, or at most ${max} entries`));
      },
    },
    {
      id: `${id}.default-limit`,
      area: area(a),
      level: 'MUST',
      rules: [
        {
          searchUsers: '000/find-user.limit-default',
          searchCourses: '000/find-course.limit-default',
          getLeaderboard: '000/leaderboard.limit-default',
          listAuditLog: '000/audit.limit-default',
        }[operationId] ?? rule,
      ],
      title: `without a limit, ${operationId} yields at most ${dflt} entries`,
      needs,
      run: async (ctx) => {
        const e = await call(ctx, operationId, { query });
        const n = list(e).length;
        return n <= dflt
          ? pass()
          : fail(`${n} entries without a limit`, evidenceOf(e, `at most ${dflt} entries`));
      },
    },
  ];
}

const lower = (s: string) => s.toLowerCase();

export const v2ReadChecks: Check[] = [
  read(
    'v2.users.search.contract',
    'users',
    'searchUsers',
    ['000/find-user', '000/capabilities.filtered'],
    'user search answers as documented',
    async () => ({ query: { query: '@' } }),
  ),
  {
    id: 'v2.users.search.finds-by-email',
    area: area('users'),
    level: 'MUST',
    rules: ['000/find-user'],
    title: "searching a user's e-mail finds them",
    needs,
    run: async (ctx) => {
      const me = searcher(ctx);
      const e = await call(ctx, 'searchUsers', { query: { query: me.email, limit: 50 } });
      return usersOf(e).some((u) => u.id === me.id)
        ? pass()
        : fail(
            `searching "${me.email}" does not find user ${me.id}`,
            evidenceOf(e, `user ${me.id} among the results`),
          );
    },
  },
  {
    id: 'v2.users.search.case-insensitive',
    area: area('users'),
    level: 'MUST',
    rules: ['000/find-user', '000/find-user.case-insensitive'],
    title: 'searching an upper-cased part of a name finds that user',
    needs,
    run: async (ctx) => {
      const me = searcher(ctx);
      const part = me.name.slice(0, Math.min(4, me.name.length)).toUpperCase();
      const e = await call(ctx, 'searchUsers', { query: { query: part, limit: 50 } });
      return usersOf(e).some((u) => u.id === me.id)
        ? pass()
        : fail(
            `searching "${part}" does not find ${me.name}`,
            evidenceOf(e, `user ${me.id} among the results`),
          );
    },
  },
  {
    id: 'v2.users.search.matches-query',
    area: area('users'),
    level: 'MUST',
    rules: ['000/find-user'],
    title: 'every user a search finds has the query in their name or e-mail',
    needs,
    run: async (ctx) => {
      const me = searcher(ctx);
      const query = (me.name.split(/\s+/)[0] ?? me.name).slice(0, 12);
      const e = await call(ctx, 'searchUsers', { query: { query, limit: 50 } });
      const odd = usersOf(e).filter((u) => !lower(`${u.name} ${u.email}`).includes(lower(query)));
      return odd.length
        ? fail(
            `searching "${query}" found ${odd.map((u) => u.name).join(', ')}, whose name and e-mail do not contain it`,
            evidenceOf(e, `only users whose name or e-mail contains "${query}"`),
          )
        : pass();
    },
  },
  ...pageLimitChecks('v2.users.search', 'users', 'searchUsers', '000/limits.search', usersOf, 50, 20, {
    query: '@',
  }),
  read(
    'v2.users.detail.contract',
    'users',
    'getUser',
    ['000/get-user', '000/capabilities.filtered'],
    'user detail answers name, e-mail, role, groups and status',
    async (ctx, headers) => ({ params: { userId: ownerId(ctx, headers) } }),
  ),
  read(
    'v2.courses.search.contract',
    'courses',
    'searchCourses',
    ['000/find-course', '000/capabilities.filtered'],
    'course search answers as documented',
    async () => ({ query: { query: 'e' } }),
  ),
  {
    id: 'v2.courses.search.substring',
    area: area('courses'),
    level: 'MUST',
    rules: ['000/find-course'],
    title: 'searching an upper-cased word of a course name finds it, and only courses whose name has it',
    needs,
    run: async (ctx) => {
      const courseId = await v2CourseId(ctx);
      const detail = await call(ctx, 'getCourse', { params: { courseId } });
      const name = readAssumed(detail, "the course's name", (b: { name?: string }) => b.name);
      const word = name.split(/\s+/).find((w) => w.length >= 3) ?? name;
      const e = await call(ctx, 'searchCourses', {
        query: { query: word.toUpperCase(), limit: 50 },
      });
      const courses = coursesOf(e);
      if (!courses.some((c) => c.id === courseId))
        return fail(
          `searching "${word.toUpperCase()}" does not find "${name}"`,
          evidenceOf(e, `course ${courseId} among the results`),
        );
      const odd = courses.filter((c) => !lower(c.name).includes(lower(word)));
      return odd.length
        ? fail(
            `searching "${word.toUpperCase()}" found ${odd.map((c) => `"${c.name}"`).join(', ')}`,
            evidenceOf(e, `only courses whose name contains "${word}"`),
          )
        : pass();
    },
  },
  ...pageLimitChecks(
    'v2.courses.search',
    'courses',
    'searchCourses',
    '000/limits.search',
    coursesOf,
    50,
    20,
    {
      query: 'e',
    },
  ),
  read(
    'v2.courses.detail.contract',
    'courses',
    'getCourse',
    ['000/get-course', '000/capabilities.filtered'],
    'course detail answers name, structure, settings and publish state',
    async (ctx) => ({ params: { courseId: await v2CourseId(ctx) } }),
  ),
  read(
    'v2.assignments.user.contract',
    'assignments',
    'listUserAssignments',
    ['000/list-assignments', '000/capabilities.filtered'],
    "a user's assignments answer as documented",
    async (ctx, headers) => ({ params: { userId: ownerId(ctx, headers) } }),
  ),
  read(
    'v2.assignments.group.contract',
    'assignments',
    'listGroupAssignments',
    ['000/list-assignments', '000/capabilities.filtered'],
    "a group's assignments answer as documented",
    async (ctx) => ({ params: { groupId: await v2GroupId(ctx) } }),
  ),
  read(
    'v2.assignments.mine.contract',
    'assignments',
    'listMyAssignments',
    ['000/list-my-assignments', '000/capabilities.filtered'],
    "the key owner's assignments answer as documented",
    async () => ({}),
  ),
  read(
    'v2.statistics.compliance.contract',
    'statistics',
    'getCourseUserStatistics',
    ['000/compliance', '000/capabilities.filtered'],
    'per-course compliance answers assigned, done, overdue and percentages',
    async (ctx) => ({ params: { courseId: await v2CourseId(ctx) } }),
  ),
  read(
    'v2.users.certificates.contract',
    'users',
    'listUserCertificates',
    ['000/certificates', '000/capabilities.filtered'],
    "a user's certificates answer as documented",
    async (ctx, headers) => ({ params: { userId: ownerId(ctx, headers) } }),
  ),
  ...(['overview', 'publishing', 'courseCreation', 'activity', 'insights', 'tags'] as const).map((scope) =>
    read(
      `v2.statistics.${scope}.contract`,
      'statistics',
      'getStatistics',
      ['000/statistics', '000/capabilities.filtered'],
      `the ${scope} statistics answer as documented`,
      async () => ({ params: { scope } }),
    ),
  ),
  read(
    'v2.statistics.leaders.contract',
    'statistics',
    'getLeaderboard',
    ['000/leaderboard', '000/capabilities.filtered'],
    'the leaderboard answers as documented',
    async () => ({}),
  ),
  {
    id: 'v2.statistics.leaders.ordered',
    area: area('statistics'),
    level: 'MUST',
    rules: ['000/leaderboard'],
    title: 'the leaderboard lists the top learners first: ranks ascending, points not increasing',
    needs,
    run: async (ctx) => {
      const e = await call(ctx, 'getLeaderboard', { query: { limit: 50 } });
      type Leader = { rank: number; points: number; coursesCompleted: number };
      const leaders = readAssumed(e, 'the leaders', (b: { leaders?: Leader[] }) => b.leaders);
      const out = leaders.findIndex((b, i) => {
        const a = leaders[i - 1];
        return (
          a !== undefined &&
          (b.rank < a.rank || (b.points > a.points && b.coursesCompleted >= a.coursesCompleted))
        );
      });
      return out < 0
        ? pass()
        : fail(
            `entry ${out + 1} ranks above entry ${out}`,
            evidenceOf(e, 'best first: ranks ascending, points descending'),
          );
    },
  },
  ...pageLimitChecks(
    'v2.statistics.leaders',
    'statistics',
    'getLeaderboard',
    '000/limits.leaderboard',
    (e) => readAssumed(e, 'the leaders', (b: { leaders?: unknown[] }) => b.leaders),
    50,
    10,
  ),
];
