// v1, read-only (seed 001, "Endpoints", "Limits"): every GET operation against the contract, the
// 20-per-page rule, and cross-checks of what the answers say: totals against the pages, the
// statistics against the lists they summarise (seed 001, Statistics: "aggregates the whole
// platform"), the leaders' order. Needs only the site API key; runs first.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check, Verdict } from '../../types.ts';
import { v1CourseId, v1UserId } from '../common/discover.ts';
import { contractCheck, judge, mustPass } from '../common/judge.ts';
import { courseAssignments } from './assignments.ts';

const auth = { apiKey: true };
const area = (a: string) => `v1.${a}`;
const JSON_RULES = ['001/conventions.json', '001/conventions.timestamps'];

interface Course {
  id: number;
}
interface Page {
  courses?: Course[];
  totalCount?: number;
}
interface Statistics {
  statistics?: { coursesCount?: number; assignedCoursesCount?: number };
  usersWithoutActivity?: { id: string }[];
  usersWithoutResults?: { id: string }[];
  leaders?: { coursesCount: number; resultValue: number; user: { id: string } }[];
  unassignedCourses?: Course[];
}

/** A page of GET /courses, judged: the check fails with it unless it is as documented. */
const page = async (ctx: Context, offset?: number) => {
  const e = await ctx.v1.call('listCourses', {
    ...(offset !== undefined ? { query: { offset } } : {}),
    headers: ctx.v1Headers(),
  });
  mustPass(judge(ctx.v1, 'listCourses', e, [200]));
  return { e, body: (e.body ?? {}) as Page };
};

/** GET /statistics, read and judged once per run. */
const statistics = (ctx: Context) =>
  ctx.once('v1.statistics', async () => {
    const e = await ctx.v1.call('getStatistics', { headers: ctx.v1Headers() });
    mustPass(judge(ctx.v1, 'getStatistics', e, [200]));
    return { e, body: (e.body ?? {}) as Statistics };
  });

/**
 * Up to `n` users of a statistics list, each with their assignments, judged against the contract:
 * all read before any is looked at.
 */
async function assignmentsOf(ctx: Context, ids: string[], n = 3) {
  const out: { id: string; e: Exchange; verdict: Verdict }[] = [];
  for (const id of ids.slice(0, n)) {
    const e = await ctx.v1.call('listUserAssignments', { params: { userId: id }, headers: ctx.v1Headers() });
    out.push({ id, e, verdict: judge(ctx.v1, 'listUserAssignments', e, [200]) });
  }
  return out;
}

/** Seed 001, Statistics: a listed user may have no assignment that is started (or finished). */
function usersWithout(
  flag: 'isCourseStarted' | 'isCourseFinished',
  list: keyof Statistics,
  rule: string,
): Check {
  const doing = flag === 'isCourseStarted' ? 'started' : 'finished';
  return {
    id: `v1.statistics.${list === 'usersWithoutActivity' ? 'without-activity' : 'without-results'}`,
    area: area('statistics'),
    level: 'MUST',
    rules: [rule],
    title: `the first users of ${list} have no ${doing} course in their assignments`,
    needs: auth,
    run: async (ctx) => {
      const stats = await statistics(ctx);
      const users = (stats.body[list] as { id: string }[] | undefined) ?? [];
      if (!users.length) throw new Incomplete(`${list} is empty: nothing to cross-check`);
      for (const { id, e, verdict } of await assignmentsOf(
        ctx,
        users.map((u) => u.id),
      )) {
        mustPass(verdict);
        const odd = ((e.body as { assignments?: Record<string, unknown>[] })?.assignments ?? []).find(
          (a) => a[flag] === true,
        );
        if (odd)
          return fail(
            `${id} is listed in ${list} but has a ${doing} course`,
            evidenceOf(e, `no assignment with ${flag} true`),
          );
      }
      return pass();
    },
  };
}

export const v1ReadChecks: Check[] = [
  contractCheck({
    id: 'v1.courses.list.contract',
    area: area('courses'),
    level: 'MUST',
    rules: ['001/courses.list', '001/courses.fields', '001/versioning.path', ...JSON_RULES],
    title: 'GET /courses answers {courses, totalCount} as documented, timestamps in seconds',
    needs: auth,
    api: 'v1',
    operationId: 'listCourses',
    request: async (ctx) => ({ headers: ctx.v1Headers() }),
  }),
  {
    id: 'v1.courses.list.page-size',
    area: area('courses'),
    level: 'MUST',
    rules: ['001/courses.page-size', '001/courses.offset'],
    title: 'GET /courses pages 20 at a time by offset, without overlap',
    needs: auth,
    run: async (ctx) => {
      const first = await page(ctx);
      const courses = first.body.courses ?? [];
      const total = first.body.totalCount ?? 0;
      const want = Math.min(20, total);
      if (courses.length !== want)
        return fail(
          `the first page has ${courses.length} courses; with totalCount ${total} it must have ${want}`,
          evidenceOf(first.e, `${want} courses`),
        );
      if (total <= 20) return pass();
      const second = await page(ctx, 20);
      const next = second.body.courses ?? [];
      if (next.length !== Math.min(20, total - 20))
        return fail(
          `offset 20 gave ${next.length} courses, expected ${Math.min(20, total - 20)}`,
          evidenceOf(second.e, 'the second page'),
        );
      const seen = new Set(courses.map((c) => c.id));
      if (next.some((c) => seen.has(c.id)))
        return fail('the second page repeats courses of the first', evidenceOf(second.e, 'no overlap'));
      return pass();
    },
  },
  {
    id: 'v1.courses.list.total',
    area: area('courses'),
    level: 'MUST',
    rules: ['001/courses.list', '001/courses.page-size', '001/courses.offset'],
    title: 'totalCount equals the number of distinct courses over all pages (the last page ends it)',
    needs: auth,
    run: async (ctx) => {
      const first = await page(ctx);
      const total = first.body.totalCount ?? 0;
      // Walk every page of a small platform; of a large one, read the last page and the one past it.
      const offsets =
        total <= 200
          ? Array.from({ length: Math.ceil(total / 20) }, (_, i) => i * 20)
          : [Math.floor((total - 1) / 20) * 20];
      const ids = new Set<number>();
      let counted = 0;
      for (const offset of offsets) {
        const p = offset === 0 ? first : await page(ctx, offset);
        for (const c of p.body.courses ?? []) ids.add(c.id);
        counted += p.body.courses?.length ?? 0;
        const want = Math.min(20, total - offset);
        if ((p.body.courses?.length ?? 0) !== want)
          return fail(
            `with totalCount ${total}, offset ${offset} must give ${want} courses; it gave ${p.body.courses?.length ?? 0}`,
            evidenceOf(p.e, `${want} courses`),
          );
      }
      if (total <= 200 && (ids.size !== total || counted !== total))
        return fail(
          `totalCount is ${total}, the pages hold ${ids.size} distinct courses in ${counted} entries`,
          evidenceOf(first.e, `${total} distinct courses over the pages`),
        );
      const past = await page(ctx, Math.ceil(total / 20) * 20);
      return (past.body.courses ?? []).length === 0
        ? pass()
        : fail('a page past totalCount still lists courses', evidenceOf(past.e, 'no courses'));
    },
  },
  contractCheck({
    id: 'v1.courses.detail.contract',
    area: area('courses'),
    level: 'MUST',
    rules: ['001/courses.detail', '001/courses.detail-fields', '001/courses.fields', ...JSON_RULES],
    title: 'GET /courses/{courseId} answers the course detail as documented',
    needs: auth,
    api: 'v1',
    operationId: 'getCourse',
    request: async (ctx) => ({ params: { courseId: await v1CourseId(ctx) }, headers: ctx.v1Headers() }),
  }),
  contractCheck({
    id: 'v1.assignments.course.contract',
    area: area('assignments'),
    level: 'MUST',
    rules: [
      '001/assignments.course-list',
      '001/assignments.progress',
      '001/assignments.flags',
      '001/assignments.user',
      ...JSON_RULES,
    ],
    title: "a course's assignments answer {assignments, totalCount}, totalCount no less than the list",
    needs: auth,
    api: 'v1',
    operationId: 'listCourseAssignments',
    request: async (ctx) => ({ params: { courseId: await v1CourseId(ctx) }, headers: ctx.v1Headers() }),
    verify: (_ctx, e) => {
      const b = e.body as { assignments: unknown[]; totalCount: number };
      return b.totalCount >= b.assignments.length
        ? pass()
        : fail(
            `totalCount ${b.totalCount} is less than the ${b.assignments.length} assignments listed`,
            evidenceOf(e, 'totalCount ≥ the number of assignments'),
          );
    },
  }),
  contractCheck({
    id: 'v1.assignments.user.contract',
    area: area('assignments'),
    level: 'MUST',
    rules: [
      '001/assignments.user-list',
      '001/assignments.progress',
      '001/assignments.flags',
      '001/assignments.course',
      ...JSON_RULES,
    ],
    title: "a user's assignments answer {assignments} with the course of each",
    needs: auth,
    api: 'v1',
    operationId: 'listUserAssignments',
    request: async (ctx) => ({ params: { userId: await v1UserId(ctx) }, headers: ctx.v1Headers() }),
  }),
  {
    id: 'v1.statistics.contract',
    area: area('statistics'),
    level: 'MUST',
    rules: ['001/statistics.counts', ...JSON_RULES],
    title:
      'GET /statistics answers the counters, users without activity or results, leaders, unassigned courses',
    needs: auth,
    run: async (ctx) => {
      await statistics(ctx);
      return pass();
    },
  },
  {
    id: 'v1.statistics.courses-count',
    area: area('statistics'),
    level: 'MUST',
    rules: ['001/statistics.counts', '001/courses.list', '001/statistics.whole-platform'],
    title: 'statistics.coursesCount equals the totalCount of GET /courses',
    needs: auth,
    run: async (ctx) => {
      const stats = await statistics(ctx);
      const list = await page(ctx);
      const counted = stats.body.statistics?.coursesCount;
      return counted === list.body.totalCount
        ? pass()
        : fail(
            `statistics.coursesCount is ${counted}, GET /courses has totalCount ${list.body.totalCount}`,
            evidenceOf(stats.e, `coursesCount ${list.body.totalCount}`),
          );
    },
  },
  {
    id: 'v1.statistics.unassigned',
    area: area('statistics'),
    level: 'MUST',
    rules: ['001/statistics.unassigned', '001/statistics.counts', '001/statistics.whole-platform'],
    title: 'unassigned courses have no assignment, and with assignedCoursesCount make up coursesCount',
    needs: auth,
    run: async (ctx) => {
      const stats = await statistics(ctx);
      const unassigned = stats.body.unassignedCourses ?? [];
      const { coursesCount = 0, assignedCoursesCount = 0 } = stats.body.statistics ?? {};
      // The list is capped at 100 (the kit's choice); below the cap it is complete.
      if (unassigned.length < 100 && assignedCoursesCount + unassigned.length !== coursesCount)
        return fail(
          `assignedCoursesCount ${assignedCoursesCount} + ${unassigned.length} unassigned courses ≠ coursesCount ${coursesCount}`,
          evidenceOf(stats.e, 'assignedCoursesCount + unassignedCourses = coursesCount'),
        );
      for (const course of unassigned.slice(0, 3)) {
        const { e, totalCount, assignments } = await courseAssignments(ctx, course.id);
        if (totalCount !== 0 || assignments.length)
          return fail(
            `course ${course.id} is listed as unassigned but has ${totalCount} assignments`,
            evidenceOf(e, 'no assignment'),
          );
      }
      return pass();
    },
  },
  usersWithout('isCourseStarted', 'usersWithoutActivity', '001/statistics.without-activity'),
  usersWithout('isCourseFinished', 'usersWithoutResults', '001/statistics.without-results'),
  {
    id: 'v1.statistics.leaders-ranked',
    area: area('statistics'),
    level: 'MUST',
    rules: ['001/statistics.leaders'],
    title: 'leaders are ranked by completion count, then average score, best first',
    needs: auth,
    run: async (ctx) => {
      const stats = await statistics(ctx);
      const leaders = stats.body.leaders ?? [];
      const out = leaders.findIndex(
        (b, i) =>
          i > 0 &&
          (() => {
            const a = leaders[i - 1] as (typeof leaders)[number];
            return (
              b.coursesCount > a.coursesCount ||
              (b.coursesCount === a.coursesCount && b.resultValue > a.resultValue)
            );
          })(),
      );
      return out < 0
        ? pass()
        : fail(
            `leader ${out + 1} (${leaders[out]?.coursesCount} courses, ${leaders[out]?.resultValue}) ranks above leader ${out} by completion count and score`,
            evidenceOf(stats.e, 'leaders by coursesCount, then resultValue, descending'),
          );
    },
  },
  contractCheck({
    id: 'v1.webhooks.last.contract',
    area: area('webhooks'),
    level: 'MUST',
    rules: [
      '001/webhooks.last',
      '001/webhooks.envelope',
      '001/webhooks.slash-type',
      '001/webhooks.dot-notation',
      ...JSON_RULES,
    ],
    title: 'GET /webhook/user.created/last answers the envelope {occuredAt, type, body}, or 404 when none',
    needs: auth,
    api: 'v1',
    operationId: 'getLastWebhookEvent',
    expect: [200, 404],
    request: async (ctx) => ({ params: { event: 'user.created' }, headers: ctx.v1Headers() }),
  }),
  ...(['users', 'groups'] as const).map((scope) =>
    contractCheck({
      id: `v1.attributes.${scope}.list`,
      area: area('attributes'),
      level: 'SHOULD',
      rules: ['001/attributes.get-same-shape'],
      assumption: `GET /custom/attributes/${scope} (the seed mentions the GET endpoints; their paths are not shown)`,
      title: `GET /custom/attributes/${scope} lists the ${scope === 'users' ? 'user' : 'group'} attribute definitions`,
      needs: auth,
      api: 'v1',
      operationId: scope === 'users' ? 'listUserAttributes' : 'listGroupAttributes',
      request: async (ctx) => ({ headers: ctx.v1Headers() }),
    }),
  ),
];
