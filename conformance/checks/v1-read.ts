// v1, read-only (seed 001): every GET operation against the contract, the 20-per-page rule, the
// documented 404s and the error object, and authentication.
import { evidenceOf, fail, pass } from '../context.ts';
import type { Check } from '../types.ts';
import { contractCheck, judge, need, UNKNOWN_ID, v1CourseId, v1UserId } from './helpers.ts';

const S = 'seed 001';
const auth = { apiKey: true };
const area = (a: string) => `v1.${a}`;

export const v1ReadChecks: Check[] = [
  contractCheck({
    id: 'v1.courses.list.contract',
    area: area('courses'),
    level: 'MUST',
    source: `${S}, Courses and assignments: GET /courses`,
    title: 'GET /courses answers {courses, totalCount} as documented',
    needs: auth,
    api: 'v1',
    operationId: 'listCourses',
    request: async (ctx) => ({ headers: ctx.v1Headers() }),
  }),
  {
    id: 'v1.courses.list.page-size',
    area: area('courses'),
    level: 'MUST',
    source: `${S}, Limits: 20 courses per page; offset 20 gives the second page`,
    title: 'GET /courses pages 20 at a time by offset, without overlap',
    needs: auth,
    run: async (ctx) => {
      const first = await ctx.v1.call('listCourses', { headers: ctx.v1Headers() });
      const body = first.body as { courses?: { id: number }[]; totalCount?: number };
      const courses = body?.courses ?? [];
      const total = body?.totalCount ?? 0;
      const want = Math.min(20, total);
      if (courses.length !== want) {
        return fail(
          `the first page has ${courses.length} courses; with totalCount ${total} it must have ${want}`,
          evidenceOf(first, `${want} courses`),
        );
      }
      if (total <= 20) return pass();
      const second = await ctx.v1.call('listCourses', { query: { offset: 20 }, headers: ctx.v1Headers() });
      const next = (second.body as { courses?: { id: number }[] })?.courses ?? [];
      if (next.length !== Math.min(20, total - 20)) {
        return fail(
          `offset 20 gave ${next.length} courses, expected ${Math.min(20, total - 20)}`,
          evidenceOf(second, 'the second page'),
        );
      }
      const seen = new Set(courses.map((c) => c.id));
      if (next.some((c) => seen.has(c.id)))
        return fail('the second page repeats courses of the first', evidenceOf(second, 'no overlap'));
      return pass();
    },
  },
  contractCheck({
    id: 'v1.courses.detail.contract',
    area: area('courses'),
    level: 'MUST',
    source: `${S}, Courses and assignments: GET /courses/{courseId}`,
    title: 'GET /courses/{courseId} answers the course detail as documented',
    needs: auth,
    api: 'v1',
    operationId: 'getCourse',
    request: async (ctx) => {
      const id = need(await v1CourseId(ctx), 'course');
      return typeof id === 'number' ? { params: { courseId: id }, headers: ctx.v1Headers() } : id;
    },
  }),
  contractCheck({
    id: 'v1.courses.detail.not-found',
    area: area('courses'),
    level: 'MUST',
    source: `${S}, Courses and assignments: "404 when not found"; Errors: the error object`,
    title: 'an unknown course answers 404 with the error object {status, message}',
    needs: auth,
    api: 'v1',
    operationId: 'getCourse',
    expect: [404],
    request: async (ctx) => ({ params: { courseId: UNKNOWN_ID }, headers: ctx.v1Headers() }),
    verify: (_ctx, e) => {
      const b = e.body as { status?: unknown; message?: unknown };
      return b?.status === 404 && typeof b.message === 'string'
        ? pass()
        : fail('the 404 body is not {status: 404, message}', evidenceOf(e, '{status: 404, message}'));
    },
  }),
  contractCheck({
    id: 'v1.assignments.course.contract',
    area: area('assignments'),
    level: 'MUST',
    source: `${S}, Courses and assignments: GET /courses/{courseId}/assignments/users`,
    title: "a course's assignments answer {assignments, totalCount} as documented",
    needs: auth,
    api: 'v1',
    operationId: 'listCourseAssignments',
    request: async (ctx) => {
      const id = need(await v1CourseId(ctx), 'course');
      return typeof id === 'number' ? { params: { courseId: id }, headers: ctx.v1Headers() } : id;
    },
  }),
  contractCheck({
    id: 'v1.assignments.course.not-found',
    area: area('assignments'),
    level: 'MUST',
    source: `${S}, Courses and assignments: "404 when the course is missing"`,
    title: 'assignments of an unknown course answer 404',
    needs: auth,
    api: 'v1',
    operationId: 'listCourseAssignments',
    expect: [404],
    request: async (ctx) => ({ params: { courseId: UNKNOWN_ID }, headers: ctx.v1Headers() }),
  }),
  contractCheck({
    id: 'v1.assignments.user.contract',
    area: area('assignments'),
    level: 'MUST',
    source: `${S}, Courses and assignments: GET /users/{userId}/assignments`,
    title: "a user's assignments answer {assignments} with the course of each",
    needs: auth,
    api: 'v1',
    operationId: 'listUserAssignments',
    request: async (ctx) => {
      const id = need(await v1UserId(ctx), 'user');
      return typeof id === 'string' ? { params: { userId: id }, headers: ctx.v1Headers() } : id;
    },
  }),
  contractCheck({
    id: 'v1.assignments.user.not-found',
    area: area('assignments'),
    level: 'MUST',
    source: `${S}, Courses and assignments: "404 when the user is missing"`,
    title: 'assignments of an unknown user answer 404',
    needs: auth,
    api: 'v1',
    operationId: 'listUserAssignments',
    expect: [404],
    request: async (ctx) => ({ params: { userId: `nobody${ctx.runId}` }, headers: ctx.v1Headers() }),
  }),
  contractCheck({
    id: 'v1.statistics.contract',
    area: area('statistics'),
    level: 'MUST',
    source: `${S}, Statistics: GET /statistics`,
    title:
      'GET /statistics answers the counters, users without activity or results, leaders, unassigned courses',
    needs: auth,
    api: 'v1',
    operationId: 'getStatistics',
    request: async (ctx) => ({ headers: ctx.v1Headers() }),
  }),
  contractCheck({
    id: 'v1.groups.statistics.not-found',
    area: area('groups'),
    level: 'MUST',
    source: `${S}, Groups: "404 group not found"`,
    title: 'statistics of an unknown group answer 404',
    needs: auth,
    api: 'v1',
    operationId: 'getGroupStatistics',
    expect: [404],
    request: async (ctx) => ({ params: { groupId: UNKNOWN_ID }, headers: ctx.v1Headers() }),
  }),
  contractCheck({
    id: 'v1.webhooks.last.contract',
    area: area('webhooks'),
    level: 'MUST',
    source: `${S}, Webhook last event: the full envelope, 404 when none`,
    title: 'GET /webhook/user.created/last answers the envelope {occuredAt, type, body} or 404',
    needs: auth,
    api: 'v1',
    operationId: 'getLastWebhookEvent',
    expect: [200, 404],
    request: async (ctx) => ({ params: { event: 'user.created' }, headers: ctx.v1Headers() }),
  }),
  contractCheck({
    id: 'v1.attributes.users.list',
    area: area('attributes'),
    level: 'SHOULD',
    source:
      'assumed: GET /custom/attributes/users (seed 001 mentions the GET endpoints, their paths are not shown)',
    title: 'GET /custom/attributes/users lists the user attribute definitions',
    needs: auth,
    api: 'v1',
    operationId: 'listUserAttributes',
    request: async (ctx) => ({ headers: ctx.v1Headers() }),
  }),
  contractCheck({
    id: 'v1.attributes.groups.list',
    area: area('attributes'),
    level: 'SHOULD',
    source:
      'assumed: GET /custom/attributes/groups (seed 001 mentions the GET endpoints, their paths are not shown)',
    title: 'GET /custom/attributes/groups lists the group attribute definitions',
    needs: auth,
    api: 'v1',
    operationId: 'listGroupAttributes',
    request: async (ctx) => ({ headers: ctx.v1Headers() }),
  }),
  ...(['missing', 'wrong'] as const).map(
    (how): Check => ({
      id: `v1.auth.${how}-key`,
      area: area('auth'),
      level: 'SHOULD',
      source:
        'assumed: seed 001, Authentication ("Responses for a missing or invalid key: not shown"); docs/adr-0002: 401 {status, message}',
      title: `a request with ${how === 'missing' ? 'no' : 'a wrong'} X-API-KEY answers 401 in the error shape`,
      run: async (ctx) => {
        const headers: Record<string, string> = how === 'wrong' ? { 'x-api-key': `wrong-${ctx.runId}` } : {};
        const e = await ctx.v1.call('listCourses', { headers });
        const verdict = judge(ctx.v1, 'listCourses', e, [401]);
        if (verdict.status !== 'pass') return verdict;
        const b = e.body as { status?: unknown; message?: unknown } | undefined;
        return b?.status === 401 && typeof b.message === 'string'
          ? pass()
          : fail('the 401 body is not {status: 401, message}', evidenceOf(e, '{status: 401, message}'));
      },
    }),
  ),
];
