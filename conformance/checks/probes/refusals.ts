// Probes of the documented refusals, one per operation: an unknown target answers 404 and a
// malformed request 400, with the error body of its API (seed 001, Errors: {status, message};
// seed 000, Errors: {error, code}). Seed 000 does not show its 404 and 400 (the kit assumed them):
// any refusal in `{error, code}` keeps the seed. Read-only: the requests are harmless
// (./harmless.ts), or malformed so that nothing can change.
import type { Context } from '../../context.ts';
import type { Check } from '../../types.ts';
import { keyHeaders, UNKNOWN_ID } from '../common/discover.ts';
import { judge, type Request } from '../common/judge.ts';
import { harmless, operationRules } from './harmless.ts';
import { probe, specOf } from './probe.ts';

interface Refusal {
  operationId: string;
  /** What is wrong with the request, for the title. */
  what: string;
  request: (ctx: Context) => Request;
  expect: number[];
  rules?: string[];
}

/** Seed 001 documents these 404s, each with a rule of its own; the body is the error object. */
const V1_NOT_FOUND: Refusal[] = (
  [
    ['blockUser', 'an unknown user', '001/users.ban-unknown'],
    ['updateUser', 'an unknown user', '001/users.not-found'],
    ['listUserAssignments', 'an unknown user', '001/assignments.user-list-not-found'],
    ['updateGroup', 'an unknown group', '001/groups.not-found'],
    ['getGroupStatistics', 'an unknown group', '001/groups.not-found'],
    ['getCourse', 'an unknown course', '001/courses.not-found'],
    ['assignCourse', 'an unknown course', '001/assignments.assign-not-found'],
    ['listCourseAssignments', 'an unknown course', '001/assignments.course-list-not-found'],
    ['getLastWebhookEvent', 'an event type never sent', '001/webhooks.last-none'],
  ] as const
).map(([operationId, what, rule]) => ({
  operationId,
  what,
  request: harmless('v1', operationId),
  expect: [404],
  rules: [rule],
}));

/**
 * Seed 001: "400 validation failed". An id that is not an integer may also be taken for an unknown
 * target (404): both refuse it, neither changes anything.
 */
const V1_MALFORMED: Refusal[] = [
  {
    operationId: 'getCourse',
    what: 'a course id that is not an integer',
    request: () => ({ params: { courseId: 'abc' } }),
    expect: [400, 404],
    rules: ['001/courses.id-integer'],
  },
  {
    operationId: 'listCourseAssignments',
    what: 'a course id that is not an integer',
    request: () => ({ params: { courseId: 'abc' } }),
    expect: [400, 404],
    rules: ['001/courses.id-integer'],
  },
  {
    operationId: 'assignCourse',
    what: 'a course id that is not an integer',
    request: () => ({ params: { courseId: 'abc' }, body: { users: [] } }),
    expect: [400, 404],
    rules: ['001/courses.id-integer'],
  },
  {
    operationId: 'getGroupStatistics',
    what: 'a group id that is not an integer',
    request: () => ({ params: { groupId: 'abc' } }),
    expect: [400, 404],
    rules: ['001/groups.id-integer'],
  },
  {
    operationId: 'updateGroup',
    what: 'a group id that is not an integer',
    request: () => ({ params: { groupId: 'abc' }, body: { name: 'lmskit probe' } }),
    expect: [400, 404],
    rules: ['001/groups.id-integer'],
  },
  {
    operationId: 'listCourses',
    what: 'an offset that is not an integer',
    request: () => ({ query: { offset: 'abc' } }),
    expect: [400],
    rules: ['001/courses.offset'],
  },
  {
    operationId: 'blockUser',
    what: 'no user id',
    request: () => ({ body: {} }),
    expect: [400],
    rules: ['001/users.ban-id-required'],
  },
  {
    operationId: 'getLastWebhookEvent',
    what: 'an event name that is not dot notation',
    request: () => ({ params: { event: 'no such event!' } }),
    expect: [400, 404],
    rules: ['001/webhooks.dot-notation'],
  },
];

/** Seed 000 does not show 404 and 400 (the kit assumed them): any refusal in `{error, code}` keeps the seed. */
const V2_NOT_FOUND: Refusal[] = [
  'getUser',
  'getCourse',
  'listUserAssignments',
  'listGroupAssignments',
  'getCourseUserStatistics',
  'listUserCertificates',
  'assignUserToCourse',
  'assignCourseToGroups',
  'assignCourseChain',
  'banUser',
  'unbanUser',
  'changeUserEmail',
  'cloneCourse',
  'processSourceMaterial',
  'getGenerationJob',
].map((operationId) => ({
  operationId,
  what: 'an unknown target',
  request: harmless('v2', operationId),
  expect: [404],
}));

const V2_MALFORMED: Refusal[] = [
  {
    operationId: 'searchUsers',
    what: 'no query',
    request: () => ({ query: { limit: 5 } }),
    expect: [400],
    rules: ['000/find-user.query-required'],
  },
  {
    operationId: 'getUser',
    what: 'a user id that is not an integer',
    request: () => ({ params: { userId: 'abc' } }),
    expect: [400],
    rules: ['000/get-user.user-id'],
  },
  {
    operationId: 'searchCourses',
    what: 'no query',
    request: () => ({ query: { limit: 5 } }),
    expect: [400],
    rules: ['000/find-course.query-required'],
  },
  {
    operationId: 'getCourse',
    what: 'a course id that is not an integer',
    request: () => ({ params: { courseId: 'abc' } }),
    expect: [400],
    rules: ['000/get-course.course-id'],
  },
  {
    operationId: 'listUserAssignments',
    what: 'a user id that is not an integer',
    request: () => ({ params: { userId: 'abc' } }),
    expect: [400],
  },
  {
    operationId: 'listGroupAssignments',
    what: 'a group id that is not an integer',
    request: () => ({ params: { groupId: 'abc' } }),
    expect: [400],
  },
  {
    operationId: 'getCourseUserStatistics',
    what: 'a course id that is not an integer',
    request: () => ({ params: { courseId: 'abc' } }),
    expect: [400],
    rules: ['000/compliance.course-id'],
  },
  {
    operationId: 'listUserCertificates',
    what: 'a user id that is not an integer',
    request: () => ({ params: { userId: 'abc' } }),
    expect: [400],
    rules: ['000/certificates.user-id'],
  },
  {
    operationId: 'getStatistics',
    what: 'a scope that is not one of the six',
    request: () => ({ params: { scope: 'everything' } }),
    expect: [400],
  },
  {
    operationId: 'getLeaderboard',
    what: 'a limit that is not an integer',
    request: () => ({ query: { limit: 'ten' } }),
    expect: [400],
  },
  {
    operationId: 'listAuditLog',
    what: 'a window start that is not a date',
    request: () => ({ query: { 'fields[createdAt][from]': 'yesterday' } }),
    expect: [400],
    rules: ['000/audit.date-format'],
  },
  {
    operationId: 'assignUserToCourse',
    what: 'no user id',
    request: () => ({ params: { courseId: UNKNOWN_ID }, body: {} }),
    expect: [400],
    rules: ['000/assign-training.required'],
  },
  {
    operationId: 'assignCourseToGroups',
    what: 'groups that are not a list',
    request: () => ({ params: { courseId: UNKNOWN_ID }, body: { groups: 'all' } }),
    expect: [400],
  },
  {
    operationId: 'assignCourseChain',
    what: 'users that are not a list',
    request: () => ({ params: { chainId: UNKNOWN_ID }, body: { users: 'all' } }),
    expect: [400],
  },
  {
    operationId: 'banUser',
    what: 'a user id that is not an integer',
    request: () => ({ body: { userId: 'abc' } }),
    expect: [400],
  },
  {
    operationId: 'unbanUser',
    what: 'a user id that is not an integer',
    request: () => ({ params: { userId: 'abc' } }),
    expect: [400],
  },
  {
    operationId: 'changeUserEmail',
    what: 'an address that is not an e-mail',
    request: () => ({ params: { userId: UNKNOWN_ID }, body: { email: 'not an e-mail' } }),
    expect: [400],
  },
  { operationId: 'cloneCourse', what: 'no course id', request: () => ({ body: {} }), expect: [400] },
  {
    operationId: 'uploadSourceMaterial',
    what: 'no file',
    request: () => {
      const form = new FormData();
      form.append('sessionId', 'lmskit-probe');
      return { body: form };
    },
    expect: [400],
  },
  { operationId: 'processSourceMaterial', what: 'no session', request: () => ({ body: {} }), expect: [400] },
];

const refusalChecks = (api: 'v1' | 'v2', kind: 'not-found' | 'malformed', refusals: Refusal[]): Check[] =>
  refusals.map((r) =>
    probe({
      id: `${api}.${kind}.${r.operationId}`,
      area: `${api}.errors`,
      level: 'MUST',
      rules: [
        ...(r.rules ?? operationRules(api, r.operationId)),
        api === 'v1' ? '001/errors.shape' : '000/errors.shape',
      ],
      title: `${specOf(api)(r.operationId)} with ${r.what} is refused with ${r.expect.join(' or ')}${api === 'v1' ? ' {status, message}' : ' {error, code}'}`,
      needs: api === 'v1' ? { apiKey: true } : { mcpScope: 'read' },
      api,
      operationId: r.operationId,
      request: (ctx) => ({
        ...r.request(ctx),
        headers: api === 'v1' ? ctx.v1Headers() : keyHeaders(ctx, r.operationId),
      }),
      judge: (a, e) => judge(a, r.operationId, e, r.expect),
    }),
  );

export const refusalProbes: Check[] = [
  ...refusalChecks('v1', 'not-found', V1_NOT_FOUND),
  ...refusalChecks('v1', 'malformed', V1_MALFORMED),
  ...refusalChecks('v2', 'not-found', V2_NOT_FOUND),
  ...refusalChecks('v2', 'malformed', V2_MALFORMED),
];
