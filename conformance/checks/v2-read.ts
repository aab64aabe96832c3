// v2, read-only (seed 000, "Read tools" and "Limits"): every read operation against the contract,
// each with a key that is offered the tool; the search rule verified on the results; the documented
// limits; the leaderboard's order; the audit log's filters. Most v2 payloads are the kit's choice
// (the seed: "result payload fields of read tools: not shown"), so a rule read through them makes
// the check incomplete, not failed, when the deployment names its fields otherwise.
import { type Context, evidenceOf, fail, pass } from '../context.ts';
import type { Exchange } from '../http.ts';
import { Incomplete } from '../outcomes.ts';
import type { Check } from '../types.ts';
import {
  contractCheck,
  judge,
  keyHeaders,
  ownerId,
  type Request,
  readAssumed,
  UNKNOWN_ID,
  v2CourseId,
  v2GroupId,
} from './helpers.ts';

const needs = { mcpScope: 'read' as const };
const area = (a: string) => `v2.${a}`;

/** A contract check of one read operation, with a key offered the tool. */
const read = (
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

const call = async (ctx: Context, operationId: string, req: Request) => {
  const e = await ctx.v2.callRaw(operationId, { ...req, headers: keyHeaders(ctx, operationId) });
  return { e, verdict: judge(ctx.v2, operationId, e, [200]) };
};

type User = { id: number; name: string; email: string };
const usersOf = (e: Exchange) => readAssumed(e, 'the users found', (b: { users?: User[] }) => b.users);
const coursesOf = (e: Exchange) =>
  readAssumed(e, 'the courses found', (b: { courses?: { id: number; name: string }[] }) => b.courses);
type Entry = { id: number; createdAt: number; author: { id: number } | null };
const entriesOf = (e: Exchange) =>
  readAssumed(e, 'the audit entries', (b: { entries?: Entry[] }) => b.entries);

/** The owner of the key used for find_user. */
const searcher = (ctx: Context) => {
  const headers = keyHeaders(ctx, 'searchUsers');
  const key = ctx.keys.find((k) => k.key === headers['x-mcp-key']);
  if (!key) throw new Incomplete('no MCP key was accepted');
  return key.user;
};

/** Seed 000, Limits: asking for more than the maximum never yields more (a 400, or capped). */
function limitChecks(
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
        const verdict = judge(ctx.v2, operationId, e, [200]);
        if (verdict.status !== 'pass') return verdict;
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
        const { e, verdict } = await call(ctx, operationId, { query });
        if (verdict.status !== 'pass') return verdict;
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
      const { e, verdict } = await call(ctx, 'searchUsers', { query: { query: me.email, limit: 50 } });
      if (verdict.status !== 'pass') return verdict;
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
      const { e, verdict } = await call(ctx, 'searchUsers', { query: { query: part, limit: 50 } });
      if (verdict.status !== 'pass') return verdict;
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
      const { e, verdict } = await call(ctx, 'searchUsers', { query: { query, limit: 50 } });
      if (verdict.status !== 'pass') return verdict;
      const odd = usersOf(e).filter((u) => !lower(`${u.name} ${u.email}`).includes(lower(query)));
      return odd.length
        ? fail(
            `searching "${query}" found ${odd.map((u) => u.name).join(', ')}, whose name and e-mail do not contain it`,
            evidenceOf(e, `only users whose name or e-mail contains "${query}"`),
          )
        : pass();
    },
  },
  ...limitChecks('v2.users.search', 'users', 'searchUsers', '000/limits.search', usersOf, 50, 20, {
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
      if (detail.verdict.status !== 'pass') return detail.verdict;
      const name = readAssumed(detail.e, "the course's name", (b: { name?: string }) => b.name);
      const word = name.split(/\s+/).find((w) => w.length >= 3) ?? name;
      const { e, verdict } = await call(ctx, 'searchCourses', {
        query: { query: word.toUpperCase(), limit: 50 },
      });
      if (verdict.status !== 'pass') return verdict;
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
  ...limitChecks('v2.courses.search', 'courses', 'searchCourses', '000/limits.search', coursesOf, 50, 20, {
    query: 'e',
  }),
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
      const { e, verdict } = await call(ctx, 'getLeaderboard', { query: { limit: 50 } });
      if (verdict.status !== 'pass') return verdict;
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
  ...limitChecks(
    'v2.statistics.leaders',
    'statistics',
    'getLeaderboard',
    '000/limits.leaderboard',
    (e) => readAssumed(e, 'the leaders', (b: { leaders?: unknown[] }) => b.leaders),
    50,
    10,
  ),
  read(
    'v2.audit.contract',
    'audit',
    'listAuditLog',
    ['000/audit.window', '000/audit.date-format', '000/capabilities.filtered'],
    'the audit log, filtered by a YYYY-MM-DD window, answers as documented',
    async () => ({
      query: { 'fields[createdAt][from]': '2000-01-01', 'fields[createdAt][to]': '2100-12-31' },
    }),
  ),
  {
    id: 'v2.audit.filter-author',
    area: area('audit'),
    level: 'MUST',
    rules: ['000/audit.filters'],
    title: "fields[author] keeps only that author's entries (none for a user who never acted)",
    needs,
    run: async (ctx) => {
      const all = await call(ctx, 'listAuditLog', {});
      if (all.verdict.status !== 'pass') return all.verdict;
      const entries = entriesOf(all.e);
      if (!entries.length)
        throw new Incomplete('the audit log is empty: run with --allow-writes to give it entries');
      const none = await call(ctx, 'listAuditLog', { query: { 'fields[author]': UNKNOWN_ID } });
      if (none.verdict.status !== 'pass') return none.verdict;
      if (entriesOf(none.e).length)
        return fail(
          `fields[author]=${UNKNOWN_ID}, an id no user has, still lists entries`,
          evidenceOf(none.e, 'no entries'),
        );
      const author = entries.find((x) => x.author)?.author?.id;
      if (author === undefined) return pass();
      const theirs = await call(ctx, 'listAuditLog', { query: { 'fields[author]': author } });
      if (theirs.verdict.status !== 'pass') return theirs.verdict;
      const got = entriesOf(theirs.e);
      const odd = got.filter((x) => x.author?.id !== author);
      return got.length && !odd.length
        ? pass()
        : fail(
            `fields[author]=${author} lists ${got.length} entries, ${odd.length} by someone else`,
            evidenceOf(theirs.e, `only entries by ${author}, at least one`),
          );
    },
  },
  {
    id: 'v2.audit.filter-window',
    area: area('audit'),
    level: 'MUST',
    rules: ['000/audit.window', '000/audit.date-format'],
    title: 'fields[createdAt][from|to] keep only entries in the window (ISO date or YYYY-MM-DD)',
    needs,
    run: async (ctx) => {
      const all = await call(ctx, 'listAuditLog', {});
      if (all.verdict.status !== 'pass') return all.verdict;
      if (!entriesOf(all.e).length)
        throw new Incomplete('the audit log is empty: run with --allow-writes to give it entries');
      const before = await call(ctx, 'listAuditLog', { query: { 'fields[createdAt][to]': '1990-01-01' } });
      if (before.verdict.status !== 'pass') return before.verdict;
      if (entriesOf(before.e).length)
        return fail('a window ending 1990-01-01 still lists entries', evidenceOf(before.e, 'no entries'));
      const after = await call(ctx, 'listAuditLog', {
        query: { 'fields[createdAt][from]': '2100-01-01T00:00:00Z' },
      });
      if (after.verdict.status !== 'pass') return after.verdict;
      if (entriesOf(after.e).length)
        return fail(
          'a window starting 2100-01-01T00:00:00Z still lists entries',
          evidenceOf(after.e, 'no entries'),
        );
      const around = await call(ctx, 'listAuditLog', {
        query: { 'fields[createdAt][from]': '2000-01-01', 'fields[createdAt][to]': '2100-12-31' },
      });
      if (around.verdict.status !== 'pass') return around.verdict;
      return entriesOf(around.e).length
        ? pass()
        : fail('a window from 2000 to 2100 lists no entries', evidenceOf(around.e, 'the entries'));
    },
  },
  {
    id: 'v2.audit.paging',
    area: area('audit'),
    level: 'SHOULD',
    rules: ['000/audit.offset'],
    assumption:
      'the audit log pages by `limit` and `offset`, newest first (the seed names them <limit> and <offset>)',
    title: 'the audit log pages by limit and offset without overlap, newest first',
    needs,
    run: async (ctx) => {
      const first = await call(ctx, 'listAuditLog', { query: { limit: 2, offset: 0 } });
      if (first.verdict.status !== 'pass') return first.verdict;
      const second = await call(ctx, 'listAuditLog', { query: { limit: 2, offset: 2 } });
      if (second.verdict.status !== 'pass') return second.verdict;
      const [a, b] = [entriesOf(first.e), entriesOf(second.e)];
      if (a.length > 2 || b.some((x) => a.some((y) => y.id === x.id)))
        return fail(
          'offset 2 repeats entries of offset 0, or limit 2 gives more',
          evidenceOf(second.e, 'the next entries'),
        );
      const times = [...a, ...b].map((x) => x.createdAt);
      return times.every((t, i) => i === 0 || t <= (times[i - 1] as number))
        ? pass()
        : fail('the entries are not newest first', evidenceOf(first.e, 'createdAt not increasing'));
    },
  },
  ...limitChecks(
    'v2.audit',
    'audit',
    'listAuditLog',
    '000/limits.audit',
    entriesOf,
    250,
    50,
    {},
    'the wire name of the audit log limit is `limit` (the seed says <limit>)',
  ),
];
