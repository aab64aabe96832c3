// v2, read-only (seed 000, "Read tools" and "Limits"): every read operation against the contract,
// the documented limits, and the search rule.
import { type Context, evidenceOf, fail, pass } from '../context.ts';
import type { Check } from '../types.ts';
import { contractCheck, judge, need, UNKNOWN_ID, v2CourseId, v2GroupId, v2UserId } from './helpers.ts';

const S = 'seed 000';
const needs = { mcpScope: 'read' as const };
const area = (a: string) => `v2.${a}`;
const withId = async (
  ctx: Context,
  find: (ctx: Context) => Promise<number | undefined>,
  what: string,
  name: string,
  extra: Record<string, string | number> = {},
) => {
  const id = need(await find(ctx), what);
  return typeof id === 'number' ? { params: { [name]: id, ...extra }, headers: ctx.v2Headers() } : id;
};

/** A contract check of one read operation with a read key. */
const read = (
  id: string,
  a: string,
  operationId: string,
  source: string,
  title: string,
  request: Parameters<typeof contractCheck>[0]['request'],
) =>
  contractCheck({
    id,
    area: area(a),
    level: 'MUST',
    source: `${S}, ${source}`,
    title,
    needs,
    api: 'v2',
    operationId,
    request,
  });

/** Seed 000, "Limits": asking for more than the maximum never yields more (400 or capped). */
function limitCap(
  id: string,
  a: string,
  operationId: string,
  list: string,
  max: number,
  dflt: number,
  query: Record<string, string> = {},
): Check[] {
  const count = (body: unknown) => ((body as Record<string, unknown[]>)?.[list] ?? []).length;
  return [
    {
      id: `${id}.limit-cap`,
      area: area(a),
      level: 'MUST',
      source: `${S}, Limits: maximum ${max}`,
      title: `asking ${operationId} for ${max + 1} entries never yields more than ${max}`,
      needs,
      run: async (ctx) => {
        const e = await ctx.v2.call(operationId, {
          query: { ...query, limit: max + 1 },
          headers: ctx.v2Headers(),
        });
        if (e.status === 400) return pass();
        const verdict = judge(ctx.v2, operationId, e, [200]);
        if (verdict.status !== 'pass') return verdict;
        return count(e.body) <= max
          ? pass()
          : fail(
              `${count(e.body)} entries for limit ${max + 1}`,
              evidenceOf(e, `400, or at most ${max} entries`),
            );
      },
    },
    {
      id: `${id}.default-limit`,
      area: area(a),
      level: 'MUST',
      source: `${S}, Limits: default ${dflt}`,
      title: `without a limit, ${operationId} yields at most ${dflt} entries`,
      needs,
      run: async (ctx) => {
        const e = await ctx.v2.call(operationId, { query, headers: ctx.v2Headers() });
        const verdict = judge(ctx.v2, operationId, e, [200]);
        if (verdict.status !== 'pass') return verdict;
        return count(e.body) <= dflt
          ? pass()
          : fail(`${count(e.body)} entries without a limit`, evidenceOf(e, `at most ${dflt} entries`));
      },
    },
  ];
}

export const v2ReadChecks: Check[] = [
  read(
    'v2.users.search.contract',
    'users',
    'searchUsers',
    'find_user: GET /api/v2/users?query&limit',
    'user search answers as documented',
    async (ctx) => ({ query: { query: '@' }, headers: ctx.v2Headers() }),
  ),
  {
    id: 'v2.users.search.case-insensitive',
    area: area('users'),
    level: 'MUST',
    source: `${S}, find_user: "name or e-mail substring, case-insensitive"`,
    title: 'searching a user by an upper-cased part of their name finds them',
    needs,
    run: async (ctx) => {
      const me = ctx.key('read')?.user;
      if (!me?.name) return fail('the capabilities name no key owner');
      const part = me.name.slice(0, Math.min(4, me.name.length)).toUpperCase();
      const e = await ctx.v2.call('searchUsers', {
        query: { query: part, limit: 50 },
        headers: ctx.v2Headers(),
      });
      const found = (e.body as { users?: { id: number }[] })?.users?.some((u) => u.id === me.id);
      return found
        ? pass()
        : fail(
            `searching "${part}" does not find ${me.name}`,
            evidenceOf(e, `user ${me.id} among the results`),
          );
    },
  },
  ...limitCap('v2.users.search', 'users', 'searchUsers', 'users', 50, 20, { query: '@' }),
  read(
    'v2.users.detail.contract',
    'users',
    'getUser',
    'get_user: GET /api/v2/users/:userId',
    'user detail answers role, groups and status',
    (ctx) => withId(ctx, v2UserId, 'user', 'userId'),
  ),
  contractCheck({
    id: 'v2.users.detail.not-found',
    area: area('errors'),
    level: 'SHOULD',
    source: 'assumed: 404 NOT_FOUND in the error shape {error, code} (seed 000, Errors: the body shape)',
    title: 'an unknown user answers 404 with {error, code}',
    needs,
    api: 'v2',
    operationId: 'getUser',
    expect: [404],
    request: async (ctx) => ({ params: { userId: UNKNOWN_ID }, headers: ctx.v2Headers() }),
  }),
  read(
    'v2.courses.search.contract',
    'courses',
    'searchCourses',
    'find_course: GET /api/v2/courses?query&limit',
    'course search answers as documented',
    async (ctx) => ({ query: { query: 'e' }, headers: ctx.v2Headers() }),
  ),
  ...limitCap('v2.courses.search', 'courses', 'searchCourses', 'courses', 50, 20, { query: 'e' }),
  read(
    'v2.courses.detail.contract',
    'courses',
    'getCourse',
    'get_course: GET /api/v2/courses/:courseId',
    'course detail answers structure, settings and publish state',
    (ctx) => withId(ctx, v2CourseId, 'course', 'courseId'),
  ),
  read(
    'v2.assignments.user.contract',
    'assignments',
    'listUserAssignments',
    'list_assignments: GET /api/v2/users/:userId/courses/assignments',
    "a user's assignments answer as documented",
    (ctx) => withId(ctx, v2UserId, 'user', 'userId'),
  ),
  read(
    'v2.assignments.group.contract',
    'assignments',
    'listGroupAssignments',
    'list_assignments: GET /api/v2/groups/:groupId/courses/assignments',
    "a group's assignments answer as documented",
    (ctx) => withId(ctx, v2GroupId, 'group', 'groupId'),
  ),
  read(
    'v2.assignments.mine.contract',
    'assignments',
    'listMyAssignments',
    'list_my_assignments: GET /api/v2/courses/assigned/me',
    "the key owner's assignments answer as documented",
    async (ctx) => ({ headers: ctx.v2Headers() }),
  ),
  read(
    'v2.statistics.compliance.contract',
    'statistics',
    'getCourseUserStatistics',
    'get_compliance_status: GET /api/v2/courses/:courseId/statistics/users',
    'per-course compliance answers assigned, done, overdue and percentages',
    (ctx) => withId(ctx, v2CourseId, 'course', 'courseId'),
  ),
  read(
    'v2.users.certificates.contract',
    'users',
    'listUserCertificates',
    'list_certificates: GET /api/v2/users/:userId/certificates',
    "a user's certificates answer as documented",
    (ctx) => withId(ctx, v2UserId, 'user', 'userId'),
  ),
  ...(['overview', 'publishing', 'courseCreation', 'activity', 'insights', 'tags'] as const).map((scope) =>
    read(
      `v2.statistics.${scope}.contract`,
      'statistics',
      'getStatistics',
      `get_statistics: GET /api/v2/statistics/${scope}`,
      `the ${scope} statistics answer as documented`,
      async (ctx) => ({ params: { scope }, headers: ctx.v2Headers() }),
    ),
  ),
  read(
    'v2.statistics.leaders.contract',
    'statistics',
    'getLeaderboard',
    'get_leaderboard: GET /api/v2/statistics/leaders',
    'the leaderboard answers as documented',
    async (ctx) => ({ headers: ctx.v2Headers() }),
  ),
  ...limitCap('v2.statistics.leaders', 'statistics', 'getLeaderboard', 'leaders', 50, 10),
  contractCheck({
    id: 'v2.audit.contract',
    area: area('audit'),
    level: 'MUST',
    source: `${S}, get_audit_log: GET /api/v2/audit with fields[author], fields[createdAt][from|to]`,
    title: 'the audit log, filtered by a YYYY-MM-DD window, answers as documented',
    needs,
    api: 'v2',
    operationId: 'listAuditLog',
    request: async (ctx) => ({
      query: { 'fields[createdAt][from]': '2000-01-01', 'fields[createdAt][to]': '2100-12-31' },
      headers: ctx.v2Headers(),
    }),
  }),
  ...limitCap('v2.audit', 'audit', 'listAuditLog', 'entries', 250, 50),
];
