// Probes derived from the contracts, one check per operation: without a key (every v1 and v2
// operation), with a read-only key (every v2 write), with an unknown target (404) and with a
// malformed request (400). Each request is one that a deployment cannot turn into a change, whether
// or not it keeps the rule: the target does not exist, or the body is invalid. So these run in
// read-only mode too.
import { type Api, type Context, contractOf, evidenceOf, fail, pass, toolsOf } from '../context.ts';
import type { Exchange } from '../http.ts';
import type { Check, Verdict } from '../types.ts';
import { judge, keyHeaders, ownerId, type Request, UNKNOWN_ID } from './helpers.ts';

const nobody = (ctx: Context) => `nobody${ctx.runId}`;

/** A text file where a source file is expected: refused by type even if everything else is ignored. */
const textUpload = (fields: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob(['lmskit conformance probe'], { type: 'text/plain' }), 'probe.txt');
  return form;
};

/** For each operation, a request with an unknown target or an invalid body. */
export const HARMLESS: Record<'v1' | 'v2', Record<string, (ctx: Context) => Request>> = {
  v1: {
    listGroupAttributes: () => ({}),
    createGroupAttributes: () => ({ body: {} }),
    listUserAttributes: () => ({}),
    createUserAttributes: () => ({ body: {} }),
    createUser: () => ({ body: {} }),
    blockUser: (ctx) => ({ body: { id: nobody(ctx) } }),
    updateUser: (ctx) => ({
      params: { userId: nobody(ctx) },
      body: { email: `${nobody(ctx)}@example.invalid` },
    }),
    listUserAssignments: (ctx) => ({ params: { userId: nobody(ctx) } }),
    createGroup: () => ({ body: {} }),
    updateGroup: () => ({ params: { groupId: UNKNOWN_ID }, body: { name: 'lmskit probe' } }),
    getGroupStatistics: () => ({ params: { groupId: UNKNOWN_ID } }),
    listCourses: () => ({}),
    getCourse: () => ({ params: { courseId: UNKNOWN_ID } }),
    assignCourse: () => ({ params: { courseId: UNKNOWN_ID }, body: { users: [] } }),
    listCourseAssignments: () => ({ params: { courseId: UNKNOWN_ID } }),
    getStatistics: () => ({}),
    getLastWebhookEvent: (ctx) => ({ params: { event: `lmskit.${ctx.runId}.never` } }),
  },
  v2: {
    getCapabilities: () => ({}),
    searchUsers: () => ({ query: { query: 'a' } }),
    getUser: () => ({ params: { userId: UNKNOWN_ID } }),
    searchCourses: () => ({ query: { query: 'a' } }),
    getCourse: () => ({ params: { courseId: UNKNOWN_ID } }),
    listUserAssignments: () => ({ params: { userId: UNKNOWN_ID } }),
    listGroupAssignments: () => ({ params: { groupId: UNKNOWN_ID } }),
    listMyAssignments: () => ({}),
    getCourseUserStatistics: () => ({ params: { courseId: UNKNOWN_ID } }),
    listUserCertificates: () => ({ params: { userId: UNKNOWN_ID } }),
    getStatistics: () => ({ params: { scope: 'overview' } }),
    getLeaderboard: () => ({}),
    listAuditLog: () => ({}),
    assignUserToCourse: () => ({ params: { courseId: UNKNOWN_ID }, body: { userId: UNKNOWN_ID } }),
    assignCourseToGroups: () => ({ params: { courseId: UNKNOWN_ID }, body: { groups: [UNKNOWN_ID] } }),
    assignCourseChain: () => ({ params: { chainId: UNKNOWN_ID }, body: { users: [UNKNOWN_ID] } }),
    banUser: () => ({ body: { userId: UNKNOWN_ID } }),
    unbanUser: () => ({ params: { userId: UNKNOWN_ID } }),
    changeUserEmail: (ctx) => ({
      params: { userId: UNKNOWN_ID },
      body: { email: `${nobody(ctx)}@example.invalid` },
    }),
    cloneCourse: () => ({ body: { courseId: UNKNOWN_ID } }),
    uploadSourceMaterial: () => ({ body: textUpload() }),
    processSourceMaterial: (ctx) => ({ body: { sessionId: nobody(ctx), fileId: nobody(ctx) } }),
    generateCourse: () => ({ body: {} }),
    getGenerationJob: (ctx) => ({ params: { jobId: nobody(ctx) } }),
    refineCourse: () => ({ params: { courseId: UNKNOWN_ID }, body: { feedback: 'lmskit probe' } }),
    regenerateQuestion: () => ({ params: { questionId: UNKNOWN_ID }, body: {} }),
    regenerateLesson: () => ({ params: { lessonId: UNKNOWN_ID }, body: {} }),
  },
};

const harmless = (api: 'v1' | 'v2', operationId: string) => {
  const request = HARMLESS[api][operationId];
  if (!request) throw new Error(`no harmless request for ${api} ${operationId}`);
  return request;
};

/**
 * The seed rule each operation carries out, for the sources of its refusal probes. The chain and
 * regeneration rules are left out: their refusals are probed, what they do is not (conformance/unprobed.ts).
 */
export const OPERATION_RULES: Record<'v1' | 'v2', Record<string, string[]>> = {
  v1: {
    listGroupAttributes: ['001/attributes.groups-upsert'],
    createGroupAttributes: ['001/attributes.groups-upsert'],
    listUserAttributes: ['001/attributes.users-upsert'],
    createUserAttributes: ['001/attributes.users-upsert'],
    createUser: ['001/users.create'],
    blockUser: ['001/users.ban'],
    updateUser: ['001/users.patch'],
    listUserAssignments: ['001/assignments.user-list'],
    createGroup: ['001/groups.create'],
    updateGroup: ['001/groups.update'],
    getGroupStatistics: ['001/groups.statistics'],
    listCourses: ['001/courses.list'],
    getCourse: ['001/courses.detail'],
    assignCourse: ['001/assignments.assign'],
    listCourseAssignments: ['001/assignments.course-list'],
    getStatistics: ['001/statistics.counts'],
    getLastWebhookEvent: ['001/webhooks.last'],
  },
  v2: {
    getCapabilities: ['000/capabilities.response'],
    searchUsers: ['000/find-user'],
    getUser: ['000/get-user'],
    searchCourses: ['000/find-course'],
    getCourse: ['000/get-course'],
    listUserAssignments: ['000/list-assignments'],
    listGroupAssignments: ['000/list-assignments'],
    listMyAssignments: ['000/list-my-assignments'],
    getCourseUserStatistics: ['000/compliance'],
    listUserCertificates: ['000/certificates'],
    getStatistics: ['000/statistics'],
    getLeaderboard: ['000/leaderboard'],
    listAuditLog: ['000/audit.filters'],
    assignUserToCourse: ['000/assign-training'],
    assignCourseToGroups: ['000/bulk-assign'],
    banUser: ['000/ban-user'],
    unbanUser: ['000/unban-user'],
    changeUserEmail: ['000/change-email'],
    cloneCourse: ['000/clone-course'],
    uploadSourceMaterial: ['000/upload.result'],
    processSourceMaterial: ['000/upload.result'],
    generateCourse: ['000/generate'],
    getGenerationJob: ['000/job.states'],
    refineCourse: ['000/refine'],
  },
};

const describe = (api: Api, operationId: string) => {
  const { method, path } = api.operation(operationId);
  return `${method} ${path}`;
};

/** A probe as a check: build the request, send it, judge the answer. */
function probe(
  spec: Omit<Check, 'run'> & {
    api: 'v1' | 'v2';
    operationId: string;
    request: (ctx: Context) => Request;
    judge: (api: Api, e: Exchange) => Verdict;
  },
): Check {
  const { api: apiName, operationId, request, judge: verdictOf, ...check } = spec;
  return {
    ...check,
    run: async (ctx) => {
      const api = ctx[apiName];
      return verdictOf(api, await api.callRaw(operationId, request(ctx)));
    },
  };
}

const operationIds = (api: 'v1' | 'v2') => Object.keys(HARMLESS[api]);
const specOf = (api: 'v1' | 'v2') =>
  api === 'v1'
    ? (id: string) => id
    : (id: string) => `${id}${toolsOf(id).length ? ` (${toolsOf(id).join(', ')})` : ''}`;

// --- Without a key ---------------------------------------------------------------------------

/** Seed 001 does not show the refusal: 401 or 403 keep the rule; 401 `{status, message}` is the kit's. */
function v1Refused(api: Api, operationId: string, e: Exchange): Verdict {
  const want = `401 (or 403) ${describe(api, operationId)}: a request without a valid X-API-KEY is refused`;
  if (e.status !== 401 && e.status !== 403)
    return fail(`answered ${e.status} to a request without a valid X-API-KEY`, evidenceOf(e, want));
  api.cover(operationId, e.status);
  const b = e.body as { status?: unknown; message?: unknown } | undefined;
  if (e.status !== 401 || b?.status !== 401 || typeof b.message !== 'string')
    api.noteAssumed(
      [
        `${describe(api, operationId)} without a key answered ${e.status} ${e.text.slice(0, 80)} where the kit assumed 401 {status: 401, message}`,
      ],
      evidenceOf(e, '401 {status: 401, message}'),
    );
  return pass();
}

/** Seed 000, Authentication 5: 401; the body is none (the text) or `{error, code: UNAUTHORIZED}` (the example). */
function v2Refused(api: Api, operationId: string, e: Exchange): Verdict {
  const want = `401 ${describe(api, operationId)}, no body or {error, code: "UNAUTHORIZED"}`;
  if (e.status !== 401) return fail(`answered ${e.status} without a valid X-MCP-Key`, evidenceOf(e, want));
  const b = e.body as { error?: unknown; code?: unknown } | undefined;
  if (e.text && !(typeof b?.error === 'string' && b.code === 'UNAUTHORIZED'))
    return fail(`the 401 body is ${e.text.slice(0, 100)}`, evidenceOf(e, want));
  api.cover(operationId, 401);
  return pass();
}

export const noKeyChecks: Check[] = [
  ...operationIds('v1').map((operationId) =>
    probe({
      id: `v1.auth.no-key.${operationId}`,
      area: 'v1.auth',
      level: 'MUST',
      rules: ['001/auth.key-required'],
      title: `${specOf('v1')(operationId)} without X-API-KEY is refused (401 or 403) and changes nothing`,
      api: 'v1',
      operationId,
      request: harmless('v1', operationId),
      judge: (api, e) => v1Refused(api, operationId, e),
    }),
  ),
  ...operationIds('v2').map((operationId) =>
    probe({
      id: `v2.auth.no-key.${operationId}`,
      area: 'v2.auth',
      level: 'MUST',
      rules: ['000/auth.key-required', '000/errors.unauthorized', '000/licence.none-needs-valid-key'],
      title: `${specOf('v2')(operationId)} without X-MCP-Key answers 401`,
      api: 'v2',
      operationId,
      request: harmless('v2', operationId),
      judge: (api, e) => v2Refused(api, operationId, e),
    }),
  ),
];

/** One request with a wrong key per API: each counts against the run's budget of failed logins. */
export const wrongKeyChecks: Check[] = [
  probe({
    id: 'v1.auth.wrong-key',
    area: 'v1.auth',
    level: 'MUST',
    rules: ['001/auth.key-required', '001/auth.invalid-key'],
    title: 'GET /courses with a wrong X-API-KEY is refused (401 or 403)',
    api: 'v1',
    operationId: 'listCourses',
    request: (ctx) => {
      ctx.spendFailedLogin();
      return { headers: { 'x-api-key': `wrong-${ctx.runId}` } };
    },
    judge: (api, e) => v1Refused(api, 'listCourses', e),
  }),
  probe({
    id: 'v2.auth.wrong-key',
    area: 'v2.auth',
    level: 'MUST',
    rules: [
      '000/auth.key-required',
      '000/auth.invalid-key',
      '000/errors.unauthorized',
      '000/licence.none-needs-valid-key',
    ],
    title: 'GET /api/v2/courses with a wrong X-MCP-Key answers 401',
    api: 'v2',
    operationId: 'searchCourses',
    request: (ctx) => {
      ctx.spendFailedLogin();
      return { query: { query: 'a' }, headers: { 'x-mcp-key': `lmcp_${'x'.repeat(43)}` } };
    },
    judge: (api, e) => v2Refused(api, 'searchCourses', e),
  }),
];

// --- A read-only key on every write -----------------------------------------------------------

/** Seed 000: write tools need the write scope (403); the code `WRITE_SCOPE_REQUIRED` is the kit's. */
function scopeRefused(api: Api, operationId: string, e: Exchange): Verdict {
  const verdict = judge(api, operationId, e, [403]);
  if (verdict.status !== 'pass') return verdict;
  if ((e.body as { code?: unknown })?.code !== 'WRITE_SCOPE_REQUIRED')
    api.noteAssumed(
      [
        `${describe(api, operationId)} with a read-only key answered code ${JSON.stringify((e.body as { code?: unknown })?.code)} where the kit assumed WRITE_SCOPE_REQUIRED`,
      ],
      evidenceOf(e, '403 WRITE_SCOPE_REQUIRED'),
    );
  return pass();
}

export const scopeChecks: Check[] = operationIds('v2')
  .filter((id) => contractOf('v2').get(id)?.node['x-scope'] === 'write')
  .map((operationId) => {
    const assumed = contractOf('v2').get(operationId)?.node['x-assumed-scope'] === true;
    return probe({
      id: `v2.scope.read-key.${operationId}`,
      area: 'v2.scope',
      level: assumed ? 'SHOULD' : 'MUST',
      rules: [
        operationId === 'getGenerationJob' ? '000/scope.job-status' : '000/scope.write',
        '000/errors.shape',
      ],
      ...(assumed
        ? {
            assumption:
              'the AI tools other than get_course_generation_status need the write scope (x-assumed-scope)',
          }
        : {}),
      title: `${specOf('v2')(operationId)} with a read-only key is refused with 403`,
      needs: { readOnlyKey: true },
      api: 'v2',
      operationId,
      request: (ctx) => ({
        ...harmless('v2', operationId)(ctx),
        headers: { 'x-mcp-key': ctx.readOnlyKey()?.key ?? '' },
      }),
      judge: (api, e) => scopeRefused(api, operationId, e),
    });
  });

// --- Unknown targets (404) and malformed requests (400) ---------------------------------------

interface Refusal {
  operationId: string;
  /** What is wrong with the request, for the title. */
  what: string;
  request: (ctx: Context) => Request;
  expect: number[];
  rules?: string[];
}

/** Seed 001 documents these 404s; the body is the error object. */
const V1_NOT_FOUND: Refusal[] = [
  {
    operationId: 'blockUser',
    what: 'an unknown user',
    request: harmless('v1', 'blockUser'),
    expect: [404],
    rules: ['001/users.ban-unknown'],
  },
  {
    operationId: 'updateUser',
    what: 'an unknown user',
    request: harmless('v1', 'updateUser'),
    expect: [404],
    rules: ['001/users.not-found'],
  },
  {
    operationId: 'listUserAssignments',
    what: 'an unknown user',
    request: harmless('v1', 'listUserAssignments'),
    expect: [404],
    rules: ['001/assignments.user-list-not-found'],
  },
  {
    operationId: 'updateGroup',
    what: 'an unknown group',
    request: harmless('v1', 'updateGroup'),
    expect: [404],
    rules: ['001/groups.not-found'],
  },
  {
    operationId: 'getGroupStatistics',
    what: 'an unknown group',
    request: harmless('v1', 'getGroupStatistics'),
    expect: [404],
    rules: ['001/groups.not-found'],
  },
  {
    operationId: 'getCourse',
    what: 'an unknown course',
    request: harmless('v1', 'getCourse'),
    expect: [404],
    rules: ['001/courses.not-found'],
  },
  {
    operationId: 'assignCourse',
    what: 'an unknown course',
    request: harmless('v1', 'assignCourse'),
    expect: [404],
    rules: ['001/assignments.assign-not-found'],
  },
  {
    operationId: 'listCourseAssignments',
    what: 'an unknown course',
    request: harmless('v1', 'listCourseAssignments'),
    expect: [404],
    rules: ['001/assignments.course-list-not-found'],
  },
  {
    operationId: 'getLastWebhookEvent',
    what: 'an event type never sent',
    request: harmless('v1', 'getLastWebhookEvent'),
    expect: [404],
    rules: ['001/webhooks.last-none'],
  },
];

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
        ...(r.rules ?? OPERATION_RULES[api][r.operationId] ?? []),
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

/**
 * Seed 000: ban, unban and e-mail change need the target to rank below the caller. Unbanning the key
 * owner themselves is refused (403); a deployment that ignores the rule unbans a user who is not
 * banned, which changes nothing.
 */
export const roleHierarchyCheck: Check = probe({
  id: 'v2.permission.role-hierarchy',
  area: 'v2.scope',
  level: 'MUST',
  rules: ['000/permission.role-hierarchy', '000/errors.shape'],
  title: 'unbanning the key owner themselves (not below their own role) is refused with 403 {error, code}',
  needs: { mcpScope: 'write' },
  api: 'v2',
  operationId: 'unbanUser',
  request: (ctx) => {
    const headers = keyHeaders(ctx, 'unbanUser');
    return { params: { userId: ownerId(ctx, headers) }, headers };
  },
  judge: (api, e) => judge(api, 'unbanUser', e, [403]),
});
