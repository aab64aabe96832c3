// The mutation matrix of the conformance suite: departures from the seeds that a real deployment
// could ship — each traced to the seed sentence it breaks and to the MUST check that must catch it —
// and legitimate variations: choices the seeds leave open, made otherwise than the kit made them,
// which must not fail a MUST. Each is a set of rewrites for the proxy in front of the real mock.
import { UNKNOWN_ID } from '../../conformance/checks/helpers.ts';
import { absentToolNames, loadTools } from '../../lib/tool-schemas.ts';
import { DEMO_SITE_API_KEY, READ_KEY, WRITE_KEY } from '../mock/harness.ts';
import type { Answer, ProxiedRequest, Rewrite } from './proxy.ts';

/** An answer's or a request's JSON, rewritten generically. */
type Json = any;

export interface Departure {
  name: string;
  /** The seed sentence the deployment breaks. */
  seed: string;
  /** The MUST check that must fail. */
  catches: string;
  /** Other checks that must fail rather than be skipped (a skip caused by the departure). */
  alsoFails?: string[];
  rewrites: () => Rewrite[];
}

export interface Variation {
  name: string;
  /** What the kit assumed, and what this deployment does instead. */
  choice: string;
  /** A SHOULD result that must report it. */
  noticedBy: string;
  rewrites: () => Rewrite[];
}

const AI_TOOLS = loadTools()
  .filter((t) => t['x-licence'].mcpAiAccess)
  .map((t) => t.name);
/** A tool the seed announces but that does not exist (mcp-schema/index.json, `absent`). */
const ABSENT = absentToolNames()[0] as string;
const V1 = '/openapi/v1';
const V2 = '/api/v2';

/** Rewrites a successful JSON answer in place (or replaces it with what `edit` returns). */
const onAnswer = (
  method: string,
  path: string | RegExp,
  edit: (body: Json, req: ProxiedRequest, answer: Answer) => unknown,
): Rewrite => ({
  method,
  path,
  response: (answer, req) => {
    if (answer.status >= 300 || answer.body === undefined || Buffer.isBuffer(answer.body)) return;
    const out = edit(answer.body, req, answer);
    if (out !== undefined) answer.body = out;
  },
});

/** Answers a request here, without the platform seeing it, when `when` holds. */
const fake = (
  method: string,
  path: string | RegExp,
  when: (req: ProxiedRequest) => boolean,
  make: (req: ProxiedRequest) => Answer,
): Rewrite => ({
  method,
  path,
  request: (req) => (when(req) ? make(req) : undefined),
});

/** Changes a request before the platform sees it. */
const onRequest = (method: string, path: string | RegExp, edit: (req: ProxiedRequest) => void): Rewrite => ({
  method,
  path,
  request: (req) => {
    edit(req);
  },
});

/** Turns a refusal into a success: the platform refused, the deployment says yes. */
const accept = (
  method: string,
  path: string | RegExp,
  status: number,
  make: (req: ProxiedRequest) => Json,
): Rewrite => ({
  method,
  path,
  response: (answer, req) => (answer.status === status ? { status: 200, body: make(req) } : undefined),
});

/** A JSON-RPC answer of the tool server, rewritten when the call is `method` (and the tool `tool`). */
const onRpc = (
  method: string,
  edit: (result: Json, req: ProxiedRequest) => void,
  tool?: string,
): Rewrite => ({
  method: 'POST',
  path: '/mcp',
  response: (answer, req) => {
    const call = req.json as { method?: string; params?: { name?: string } } | undefined;
    if (call?.method !== method || (tool && call.params?.name !== tool)) return;
    const body = answer.body as { result?: Json } | undefined;
    if (body?.result) edit(body.result, req);
  },
});

const keyOf = (req: ProxiedRequest) => req.headers['x-mcp-key'];
const user = (id: string) => ({
  id,
  name: 'lmskit fake',
  language: 'en',
  email: `${id}@example.invalid`,
  isBanned: true,
  role: { alias: 'learner' },
  fromApi: true,
});
const pad = <T>(list: T[], n: number, clone: (x: T, i: number) => T): T[] =>
  Array.from({ length: n }, (_, i) =>
    i < list.length ? (list[i] as T) : clone(list[i % list.length] as T, i),
  );

export const DEPARTURES: Departure[] = [
  // --- v1 (seed 001) ---
  {
    name: 'GET /statistics answered without a key',
    seed: '001 Authentication: "Every endpoint requires header X-API-KEY"',
    catches: 'v1.auth.no-key.getStatistics',
    rewrites: () => [
      onRequest('GET', `${V1}/statistics`, (req) => {
        req.headers['x-api-key'] ??= DEMO_SITE_API_KEY;
      }),
    ],
  },
  {
    name: 'a ban accepted without a key',
    seed: '001 Authentication: "Every endpoint requires header X-API-KEY"',
    catches: 'v1.auth.no-key.blockUser',
    rewrites: () => [
      onRequest('POST', `${V1}/users/blocked`, (req) => {
        req.headers['x-api-key'] ??= DEMO_SITE_API_KEY;
      }),
    ],
  },
  {
    name: 'a wrong key accepted',
    seed: '001 Authentication: "Every endpoint requires header X-API-KEY carrying the site API key"',
    catches: 'v1.auth.wrong-key',
    rewrites: () => [
      onRequest('GET', `${V1}/courses`, (req) => {
        if (req.headers['x-api-key']?.startsWith('wrong-')) req.headers['x-api-key'] = DEMO_SITE_API_KEY;
      }),
    ],
  },
  {
    name: 'a page of 25 courses',
    seed: '001 Limits: "Courses per page | 20"',
    catches: 'v1.courses.list.page-size',
    rewrites: () => [
      onAnswer('GET', `${V1}/courses`, (b) => {
        b.courses = pad(b.courses, 25, (c: Json, i) => ({ ...c, id: 5000 + i }));
      }),
    ],
  },
  {
    name: 'totalCount off by one',
    seed: '001 Courses and assignments: "{courses: course[], totalCount: integer}"',
    catches: 'v1.courses.list.total',
    rewrites: () => [
      onAnswer('GET', `${V1}/courses`, (b) => {
        b.totalCount += 1;
      }),
    ],
  },
  {
    name: 'offset ignored',
    seed: '001 Courses and assignments: "offset ... entry number to start from (20 gives the second page)"',
    catches: 'v1.courses.list.page-size',
    rewrites: () => [onRequest('GET', `${V1}/courses`, (req) => req.query.delete('offset'))],
  },
  {
    name: 'timestamps in milliseconds',
    seed: '001 What the service does: "All timestamps are Unix epoch seconds (UTC) as integers"',
    catches: 'v1.courses.list.contract',
    rewrites: () => [
      onAnswer('GET', `${V1}/courses`, (b) => {
        for (const c of b.courses) c.createdAt *= 1000;
      }),
    ],
  },
  {
    name: '/statistics coursesCount disagrees with the course list',
    seed: '001 Statistics: "statistics (coursesCount, ...)"; "aggregates the whole platform"',
    catches: 'v1.statistics.courses-count',
    rewrites: () => [
      onAnswer('GET', `${V1}/statistics`, (b) => {
        b.statistics.coursesCount += 3;
      }),
    ],
  },
  {
    name: 'an assigned course listed as unassigned',
    seed: '001 Statistics: "unassignedCourses (course objects not assigned to anyone)"',
    catches: 'v1.statistics.unassigned',
    rewrites: () => [
      onAnswer(
        'GET',
        `${V1}/statistics`,
        (b) => void b.unassignedCourses.unshift({ ...b.unassignedCourses[0], id: 1 }),
      ),
    ],
  },
  {
    name: 'leaders sorted the wrong way',
    seed: '001 Statistics: "leaders ... ranked by completion count and average score"',
    catches: 'v1.statistics.leaders-ranked',
    rewrites: () => [onAnswer('GET', `${V1}/statistics`, (b) => void b.leaders.reverse())],
  },
  {
    name: 'a learner with results listed without activity',
    seed: '001 Statistics: "usersWithoutActivity (users who have not started any course)"',
    catches: 'v1.statistics.without-activity',
    rewrites: () => [
      onAnswer('GET', `${V1}/statistics`, (b) => void b.usersWithoutActivity.unshift(b.leaders[0].user)),
    ],
  },
  {
    name: 'a ban answered isBanned true but not kept',
    seed: '001 States and transitions: "active | POST /users/blocked | ... | banned (isBanned true)"',
    catches: 'v1.users.ban.persisted',
    rewrites: () => [
      fake(
        'POST',
        `${V1}/users/blocked`,
        (req) => !String((req.json as Json)?.id).startsWith('nobody'),
        (req) => ({
          status: 200,
          body: user((req.json as Json).id),
        }),
      ),
    ],
  },
  {
    name: 'an expert banned anyway',
    seed: '001 States and transitions: "user is expert on courses | active | 422 with the blocking courses"',
    catches: 'v1.users.ban.expert',
    rewrites: () => [
      fake(
        'POST',
        `${V1}/users/blocked`,
        (req) => (req.json as Json)?.id === 'otto',
        () => ({ status: 200, body: user('otto') }),
      ),
    ],
  },
  {
    name: 'a taken e-mail accepted',
    seed: '001 Users: "email string required, unique"; "400 examples: e-mail already taken"',
    catches: 'v1.users.create.duplicate-email',
    rewrites: () => [
      {
        method: 'POST',
        path: `${V1}/users`,
        response: (answer, req) =>
          answer.status === 400 && (answer.body as Json)?.errors?.email
            ? {
                status: 201,
                body: {
                  ...user('dup'),
                  email: (req.json as Json).email,
                  isBanned: false,
                  occupation: null,
                  location: null,
                  timezone: 'UTC',
                  image: null,
                  attributes: {},
                },
              }
            : undefined,
      },
    ],
  },
  {
    name: 'a short password accepted',
    seed: '001 Users: "password string required (minimum 8 characters)"',
    catches: 'v1.users.create.short-password',
    rewrites: () => [
      onRequest('POST', `${V1}/users`, (req) => {
        const body = req.json as Json;
        if (typeof body?.password === 'string' && body.password.length < 8)
          body.password = body.password.padEnd(8, '0');
      }),
    ],
  },
  {
    name: 'courses given at creation not assigned',
    seed: '001 Users: "courses integer[] (course IDs to assign)"',
    catches: 'v1.users.create.assigns',
    rewrites: () => [onRequest('POST', `${V1}/users`, (req) => void delete (req.json as Json)?.courses)],
  },
  {
    name: 'a PATCH answered 200 but not kept',
    seed: '001 Users: "PATCH /users/{userId} | body below | 200, no body"',
    catches: 'v1.users.patch',
    rewrites: () => [
      fake(
        'PATCH',
        /^\/openapi\/v1\/users\/[^/]+$/,
        (req) => !req.path.includes('nobody'),
        () => ({ status: 200 }),
      ),
    ],
  },
  {
    name: 'an invalid e-mail accepted by PATCH',
    seed: '001 Users: "Errors: 400 (for example invalid e-mail format)"',
    catches: 'v1.users.patch.invalid-email',
    rewrites: () => [
      fake(
        'PATCH',
        /^\/openapi\/v1\/users\/[^/]+$/,
        (req) => (req.json as Json)?.email === 'not an e-mail',
        () => ({ status: 200 }),
      ),
    ],
  },
  {
    name: 'an assignment answered but not made',
    seed: '001 Courses and assignments: "POST /courses/{courseId}/assignments ... listing those successfully assigned"',
    catches: 'v1.users.assign-and-list',
    rewrites: () => [
      fake(
        'POST',
        /^\/openapi\/v1\/courses\/\d+\/assignments$/,
        (req) => !req.path.includes(String(UNKNOWN_ID)),
        (req) => ({
          status: 200,
          body: {
            users: ((req.json as Json).users ?? []).map((id: string) => ({
              id,
              name: 'x',
              email: `${id}@example.invalid`,
              role: { alias: 'learner' },
            })),
            groups: [],
          },
        }),
      ),
    ],
  },
  {
    name: 'a 404 without the status field',
    seed: '001 Errors: "All errors use the error object {status, message, errors?, data?}"',
    catches: 'v1.not-found.getCourse',
    rewrites: () => [
      {
        path: /^\/openapi\/v1\//,
        response: (a) => {
          a.status === 404 && delete (a.body as Json).status;
        },
      },
    ],
  },
  {
    name: 'an unknown course answered 200',
    seed: '001 Courses and assignments: "GET /courses/{courseId} ... 404 when not found"',
    catches: 'v1.not-found.getCourse',
    rewrites: () => [
      fake(
        'GET',
        `${V1}/courses/${UNKNOWN_ID}`,
        () => true,
        () => ({ status: 200, body: {} }),
      ),
    ],
  },
  {
    name: 'user.created not recorded',
    seed: '001 Events: "User/Created | user.created | a user is created"',
    catches: 'v1.webhooks.user-created',
    rewrites: () => [
      onAnswer('GET', `${V1}/webhook/user.created/last`, (b) => {
        b.body.user.email = 'someone-else@example.invalid';
      }),
    ],
  },
  {
    name: 'group.user.created not emitted',
    seed: '001 Events: "Group/User/Created | group.user.created | a user is added to a group"',
    catches: 'v1.webhooks.group-user-created',
    rewrites: () => [
      fake(
        'GET',
        `${V1}/webhook/group.user.created/last`,
        () => true,
        () => ({ status: 404, body: { status: 404, message: 'No event' } }),
      ),
    ],
  },
  {
    name: 'a new group starts with a member',
    seed: '001 Groups: "a new group has usersCount 0, coursesCount 0, image null"',
    catches: 'v1.groups.create-and-detach',
    rewrites: () => [
      onAnswer('POST', `${V1}/groups`, (b) => {
        b.usersCount = 1;
      }),
    ],
  },
  {
    name: 'parentId null ignored',
    seed: '001 Groups: "parentId integer or null (null removes the parent)"',
    catches: 'v1.groups.create-and-detach',
    rewrites: () => [
      onRequest('PATCH', /^\/openapi\/v1\/groups\/\d+$/, (req) => {
        if ((req.json as Json)?.parentId === null) delete (req.json as Json).parentId;
      }),
    ],
  },
  {
    name: 'an attribute type changed',
    seed: '001 Custom attributes: "Type cannot change"',
    catches: 'v1.attributes.groups.type-change-refused',
    rewrites: () => [
      {
        method: 'POST',
        path: `${V1}/custom/attributes/groups`,
        response: (answer, req) => {
          const item = (req.json as Json)?.[0];
          if (answer.status !== 400 || !(item?.type >= 1 && item.type <= 8) || !item.apiId) return;
          return { status: 200, body: [{ id: 777, extraData: null, ...item }] };
        },
      },
    ],
  },
  {
    name: 'an attribute at position 0 accepted',
    seed: '001 Custom attributes: "position must be a positive integer"',
    catches: 'v1.attributes.position-positive',
    rewrites: () => [
      onRequest('POST', `${V1}/custom/attributes/groups`, (req) => {
        for (const a of (req.json as Json) ?? []) if (a.position <= 0) a.position = 1;
      }),
    ],
  },
  {
    name: 'a choice attribute without options accepted',
    seed: '001 Custom attributes: "choice types need at least one option"',
    catches: 'v1.attributes.choice-needs-options',
    rewrites: () => [
      onRequest('POST', `${V1}/custom/attributes/groups`, (req) => {
        for (const a of (req.json as Json) ?? [])
          if ([3, 4].includes(a.type) && !a.extraData) a.extraData = [{ position: 1, value: 'x' }];
      }),
    ],
  },
  {
    name: 'a group attribute upsert creates a second one',
    seed: '001 Custom attributes: "for groups an existing attribute is matched by apiId (update instead of create)"',
    catches: 'v1.attributes.groups.upsert',
    rewrites: () => {
      const seen = new Set<string>();
      return [
        onRequest('POST', `${V1}/custom/attributes/groups`, (req) => {
          for (const a of (req.json as Json) ?? []) {
            if (!a.apiId) continue;
            if (seen.has(a.apiId)) a.apiId = `${a.apiId}_again`;
            seen.add(a.apiId);
          }
        }),
      ];
    },
  },
  {
    name: 'a 256-character text value accepted',
    seed: '001 Custom attribute: "text (1) limited to 255 characters"',
    catches: 'v1.attributes.text-255',
    rewrites: () => [
      onRequest('POST', `${V1}/users`, (req) => {
        const attributes = (req.json as Json)?.attributes ?? {};
        for (const [k, v] of Object.entries(attributes))
          if (typeof v === 'string') attributes[k] = v.slice(0, 255);
      }),
    ],
  },

  // --- v2 (seed 000) ---
  {
    name: 'v2 statistics answered without a key',
    seed: '000 Authentication 1: "Every request sends the key in header X-MCP-Key"; 5: "Missing ... key: 401"',
    catches: 'v2.auth.no-key.getStatistics',
    rewrites: () => [
      onRequest('GET', /^\/api\/v2\/statistics\//, (req) => {
        req.headers['x-mcp-key'] ??= READ_KEY;
      }),
    ],
  },
  {
    name: 'a v2 401 with code AUTH_FAILED',
    seed: '000 Errors: "401 | UNAUTHORIZED | missing, invalid or revoked key"',
    catches: 'v2.auth.wrong-key',
    rewrites: () => [
      {
        path: /^\/api\/v2\//,
        response: (a) => {
          if (a.status === 401) (a.body as Json).code = 'AUTH_FAILED';
        },
      },
    ],
  },
  {
    name: 'a read-only key assigns training',
    seed: '000 Write tools: "need write scope"',
    catches: 'v2.scope.read-key.assignUserToCourse',
    rewrites: () => [
      onRequest('POST', /^\/api\/v2\/courses\/[^/]+\/assignments\/users$/, (req) => {
        if (keyOf(req) === READ_KEY) req.headers['x-mcp-key'] = WRITE_KEY;
      }),
    ],
  },
  {
    name: 'a read-only key polls generation jobs',
    seed: '000 AI tools: get_course_generation_status "permission: write scope"',
    catches: 'v2.scope.read-key.getGenerationJob',
    rewrites: () => [
      onRequest('GET', /^\/api\/v2\/ai\/courses\/generate\//, (req) => {
        if (keyOf(req) === READ_KEY) req.headers['x-mcp-key'] = WRITE_KEY;
      }),
    ],
  },
  {
    name: 'a 403 without code',
    seed: '000 Errors: "Error body shape: {error: string, code: string}"',
    catches: 'v2.scope.read-key.banUser',
    rewrites: () => [
      {
        path: /^\/api\/v2\//,
        response: (a) => {
          a.status === 403 && delete (a.body as Json).code;
        },
      },
    ],
  },
  {
    name: 'unbanning oneself allowed',
    seed: '000 Permission identifiers: "role hierarchy (the target user must be below the caller\'s role)"',
    catches: 'v2.permission.role-hierarchy',
    rewrites: () => [
      fake(
        'DELETE',
        `${V2}/users/banned/1`,
        () => true,
        () => ({ status: 200, body: { userId: 1, status: 'active' } }),
      ),
    ],
  },
  {
    name: 'find_user ignores its query',
    seed: '000 find_user: "query string required (name or e-mail substring, case-insensitive)"',
    catches: 'v2.users.search.matches-query',
    alsoFails: ['v2.users.ban-unban', 'v1.users.ban.persisted'],
    rewrites: () => [onRequest('GET', `${V2}/users`, (req) => req.query.set('query', '@'))],
  },
  {
    name: 'find_user is case-sensitive',
    seed: '000 find_user: "name or e-mail substring, case-insensitive"',
    catches: 'v2.users.search.case-insensitive',
    rewrites: () => [
      fake(
        'GET',
        `${V2}/users`,
        (req) => /[A-Z]/.test(req.query.get('query') ?? ''),
        () => ({ status: 200, body: { users: [], totalCount: 0 } }),
      ),
    ],
  },
  {
    name: 'find_user limit 51 yields 51 users',
    seed: '000 Limits: "find_user, find_course limit | default 20, maximum 50"',
    catches: 'v2.users.search.limit-cap',
    rewrites: () => [
      onRequest('GET', `${V2}/users`, (req) => {
        if (Number(req.query.get('limit')) > 50) req.query.set('limit', '50');
      }),
      onAnswer('GET', `${V2}/users`, (b, req) => {
        if (req.query.get('limit') === '50')
          b.users = pad(b.users, 51, (u: Json, i) => ({ ...u, id: 5000 + i }));
      }),
    ],
  },
  {
    name: 'find_course without a limit yields 25 courses',
    seed: '000 Limits: "find_user, find_course limit | default 20"',
    catches: 'v2.courses.search.default-limit',
    rewrites: () => [
      onRequest('GET', `${V2}/courses`, (req) => {
        req.query.get('limit') ?? req.query.set('limit', '25');
      }),
    ],
  },
  {
    name: 'find_course does not find a course by part of its name',
    seed: '000 find_course: "query string required (name substring)"',
    catches: 'v2.courses.search.substring',
    rewrites: () => [
      fake(
        'GET',
        `${V2}/courses`,
        (req) => (req.query.get('query') ?? '').length > 1,
        () => ({ status: 200, body: { courses: [], totalCount: 0 } }),
      ),
    ],
  },
  {
    name: 'leaderboard sorted the wrong way',
    seed: '000 get_leaderboard: "top learners by points/completion"',
    catches: 'v2.statistics.leaders.ordered',
    rewrites: () => [onAnswer('GET', `${V2}/statistics/leaders`, (b) => void b.leaders.reverse())],
  },
  {
    name: 'leaderboard without a limit yields 12 learners',
    seed: '000 Limits: "get_leaderboard limit | default 10, maximum 50"',
    catches: 'v2.statistics.leaders.default-limit',
    rewrites: () => [
      onAnswer('GET', `${V2}/statistics/leaders`, (b, req) => {
        if (!req.query.has('limit')) b.leaders = pad(b.leaders, 12, (l: Json, i) => ({ ...l, rank: i + 1 }));
      }),
    ],
  },
  {
    name: 'audit author filter ignored',
    seed: '000 get_audit_log: "GET /api/v2/audit with filters fields[author], ..."',
    catches: 'v2.audit.filter-author',
    rewrites: () => [onRequest('GET', `${V2}/audit`, (req) => req.query.delete('fields[author]'))],
  },
  {
    name: 'audit window ignored',
    seed: '000 get_audit_log: "fields[createdAt][from], fields[createdAt][to]"',
    catches: 'v2.audit.filter-window',
    rewrites: () => [
      onRequest('GET', `${V2}/audit`, (req) => {
        req.query.delete('fields[createdAt][from]');
        req.query.delete('fields[createdAt][to]');
      }),
    ],
  },
  {
    name: 'audit log default limit of 60',
    seed: '000 Limits: "get_audit_log limit | default 50, maximum 250"',
    catches: 'v2.audit.default-limit',
    rewrites: () => [
      onRequest('GET', `${V2}/audit`, (req) => {
        req.query.get('limit') ?? req.query.set('limit', '60');
      }),
    ],
  },
  {
    name: 'a v2 ban answered but not kept',
    seed: '000 ban_user: "revokes login and course access, keeps history"',
    catches: 'v2.users.ban-unban',
    rewrites: () => [
      fake(
        'POST',
        `${V2}/users/banned`,
        (req) => (req.json as Json)?.userId !== UNKNOWN_ID,
        (req) => ({
          status: 200,
          body: { userId: (req.json as Json).userId, status: 'banned' },
        }),
      ),
    ],
  },
  {
    name: 'an unban that does nothing',
    seed: '000 unban_user: "restores access"',
    catches: 'v2.users.ban-unban',
    rewrites: () => [
      fake(
        'DELETE',
        /^\/api\/v2\/users\/banned\/\d+$/,
        (req) => !req.path.endsWith(`/${UNKNOWN_ID}`) && !req.path.endsWith('/1'),
        (req) => ({
          status: 200,
          body: { userId: Number(req.path.split('/').pop()), status: 'active' },
        }),
      ),
    ],
  },
  {
    name: 're-assigning a user adds a second assignment',
    seed: '000 assign_training: "idempotent: re-assigning the same user is a no-op"',
    catches: 'v2.assign.user.idempotent',
    rewrites: () => [
      onAnswer('GET', /^\/api\/v2\/users\/\d+\/courses\/assignments$/, (b) => {
        b.assignments = [...b.assignments, ...b.assignments];
      }),
    ],
  },
  {
    name: 'a course assigned to a group not kept',
    seed: '000 bulk_assign: "assigns every course to the group"',
    catches: 'v2.assign.groups',
    rewrites: () => [
      fake(
        'POST',
        /^\/api\/v2\/courses\/\d+\/assignments$/,
        (req) => !req.path.includes(String(UNKNOWN_ID)) && Array.isArray((req.json as Json)?.groups),
        (req) => ({
          status: 200,
          body: { courseId: Number(req.path.split('/')[4]), groups: [], usersAssigned: 0 },
        }),
      ),
    ],
  },
  {
    name: "another user's e-mail accepted by change_user_email",
    seed: '001 User: "email | unique across the site"; 000 change_user_email',
    catches: 'v2.users.email.change',
    rewrites: () => [
      accept('POST', /^\/api\/v2\/users\/\d+\/email\/change$/, 409, (req) => ({
        userId: 1,
        email: (req.json as Json).email,
        notificationSent: true,
      })),
    ],
  },
  {
    name: 'a clone published at once',
    seed: '000 clone_course: "creates an unpublished copy"',
    catches: 'v2.courses.clone',
    rewrites: () => {
      const clones = new Set<number>();
      return [
        onAnswer('POST', `${V2}/courses/clone`, (b) => void clones.add(b.id)),
        onAnswer('GET', /^\/api\/v2\/courses\/\d+$/, (b) => {
          if (clones.has(b.id)) b.isDraft = false;
        }),
      ];
    },
  },
  {
    name: 'a new generation job not queued',
    seed: '000 create_course_from_prompt: "status is always queued"',
    catches: 'v2.ai.generate.flow',
    rewrites: () => [
      onAnswer('POST', `${V2}/ai/courses/generate`, (b) => {
        b.status = 'running';
      }),
    ],
  },
  {
    name: 'a completed job without result.courseId',
    seed: '000 Generation job: "queued → completed ... result.courseId is set"',
    catches: 'v2.ai.generate.flow',
    rewrites: () => [onAnswer('GET', /^\/api\/v2\/ai\/courses\/generate\//, (b) => void delete b.result)],
  },
  {
    name: 'refining rewrites an existing element',
    seed: '000 refine_course: "append-only, never modifies or deletes existing content"',
    catches: 'v2.ai.refine.append-only',
    rewrites: () => {
      const refined = new Set<string>();
      return [
        onAnswer(
          'POST',
          /^\/api\/v2\/ai\/courses\/\d+\/refine$/,
          (_b, req) => void refined.add(req.path.split('/')[5] as string),
        ),
        onAnswer('GET', /^\/api\/v2\/courses\/\d+$/, (b) => {
          if (refined.has(String(b.id)) && b.structure?.elements?.[0])
            b.structure.elements[0].title = 'Rewritten';
        }),
      ];
    },
  },
  {
    name: 'a text file named .pdf accepted',
    seed: '000 Upload constraints: "PDF, DOC, DOCX, PNG, JPG, GIF, WebP"',
    catches: 'v2.ai.upload.type-by-content',
    rewrites: () => [
      accept('POST', `${V2}/chat/source-materials/upload`, 415, () => ({
        sessionId: 's',
        fileId: 'f',
        filename: 'notes.pdf',
        mimeType: 'application/pdf',
        size: 21,
      })),
    ],
  },
  {
    name: 'an upload over 20 MB accepted',
    seed: '000 Upload constraints: "20 MB maximum per file"',
    catches: 'v2.ai.upload.size-limit',
    rewrites: () => [
      accept('POST', `${V2}/chat/source-materials/upload`, 413, () => ({
        sessionId: 's',
        fileId: 'f',
        filename: 'too-large.pdf',
        mimeType: 'application/pdf',
        size: 20971521,
      })),
    ],
  },
  {
    name: `${ABSENT} offered`,
    seed: '000 What the service does 5: "Two further tools (extend_deadline, send_reminder) ... do not exist"',
    catches: 'v2.capabilities.no-phantom-tools',
    rewrites: () => [onAnswer('GET', `${V2}/mcp/capabilities`, (b) => void b.tools.push(ABSENT))],
  },
  {
    name: 'a read-only key offered ban_user',
    seed: '000 What the service does 3: "The tool list ... is filtered by key scope"',
    catches: 'v2.capabilities.tools-agree-with-scopes',
    rewrites: () => [
      onAnswer('GET', `${V2}/mcp/capabilities`, (b, req) => {
        keyOf(req) === READ_KEY && b.tools.push('ban_user');
      }),
    ],
  },
  {
    name: 'tier read with a write scope',
    seed: '000 Authentication 4: "read | all keys treated as read-only, including keys issued with write"',
    catches: 'v2.capabilities.tools-agree-with-scopes',
    rewrites: () => [
      onAnswer('GET', `${V2}/mcp/capabilities`, (b, req) => {
        if (keyOf(req) === WRITE_KEY) b.tier = 'read';
      }),
    ],
  },
  {
    name: 'AI switched off for the key, AI endpoints still working',
    seed: '000 Errors: "403 | MCP_AI_DISABLED | AI tool invoked while mcpAiAccess is false"',
    catches: 'v2.capabilities.withheld-refused',
    rewrites: () => [
      onAnswer('GET', `${V2}/mcp/capabilities`, (b) => {
        b.tools = b.tools.filter((t: string) => !AI_TOOLS.includes(t));
      }),
    ],
  },
  {
    name: "capabilities name someone else as the key's owner",
    seed: '000 Capabilities response: "user | object | id, name, email (the key owner)"',
    catches: 'v2.capabilities.owner',
    rewrites: () => [
      onAnswer('GET', `${V2}/mcp/capabilities`, (b) => {
        b.user.email = 'someone-else@demo.example';
      }),
    ],
  },

  // --- The tool server (seed 000 and the MCP specification) ---
  {
    name: 'tools/list offers a tool the capabilities do not',
    seed: '000 Authentication 3: "registers only the tools listed in tools"',
    catches: 'mcp.tools.list-equals-capabilities',
    rewrites: () => [
      onRpc('tools/list', (r, req) => {
        if (keyOf(req) === READ_KEY) r.tools.push({ ...r.tools[0], name: 'ban_user' });
      }),
    ],
  },
  {
    name: 'tools/list drops get_leaderboard',
    seed: '000 Authentication 3: "registers only the tools listed in tools" (and all of them)',
    catches: 'mcp.tools.list-equals-capabilities',
    rewrites: () => [
      onRpc('tools/list', (r) => {
        r.tools = r.tools.filter((t: Json) => t.name !== 'get_leaderboard');
      }),
    ],
  },
  {
    name: `tools/list offers ${ABSENT}`,
    seed: '000 What the service does 5: "extend_deadline ... does not exist"',
    catches: 'mcp.tools.no-phantoms',
    rewrites: () => [onRpc('tools/list', (r) => void r.tools.push({ ...r.tools[0], name: ABSENT }))],
  },
  {
    name: 'structuredContent departs from the output schema',
    seed: 'MCP specification: structured results conform to the output schema',
    catches: 'mcp.tools.structured-content',
    rewrites: () => [onRpc('tools/call', (r) => void delete r.structuredContent?.totalCount, 'find_course')],
  },
  {
    name: 'an unknown tool answered with a result',
    seed: 'MCP specification: calling an unknown tool is a protocol error',
    catches: 'mcp.protocol.unknown-tool',
    rewrites: () => [
      fake(
        'POST',
        '/mcp',
        (req) => (req.json as Json)?.params?.name === ABSENT,
        (req) => ({
          status: 200,
          body: {
            jsonrpc: '2.0',
            id: (req.json as Json).id,
            result: { content: [{ type: 'text', text: 'Deadline extended.' }] },
          },
        }),
      ),
    ],
  },
  {
    name: 'a tool the key is not offered performed anyway',
    seed: '000 What the service does 2: "Every tool call runs with that user\'s permissions"',
    catches: 'mcp.tools.not-offered-refused',
    rewrites: () => [
      fake(
        'POST',
        '/mcp',
        (req) => keyOf(req) === READ_KEY && (req.json as Json)?.params?.name === 'ban_user',
        (req) => ({
          status: 200,
          body: {
            jsonrpc: '2.0',
            id: (req.json as Json).id,
            result: { content: [{ type: 'text', text: 'User banned.' }] },
          },
        }),
      ),
    ],
  },
  {
    name: 'find_user called without its query',
    seed: '000 Read tools: "find_user | query ... | GET /api/v2/users?query&limit"',
    catches: 'mcp.tools.find-user-query',
    rewrites: () => [
      onRequest('POST', '/mcp', (req) => {
        const call = req.json as Json;
        if (call?.params?.name === 'find_user') call.params.arguments.query = '@';
      }),
    ],
  },
  {
    name: 'a backend error turned into a protocol error',
    seed: '000 Errors: "Tools convert backend errors into readable strings for the agent"',
    catches: 'mcp.tools.backend-error-readable',
    rewrites: () => [
      {
        method: 'POST',
        path: '/mcp',
        response: (answer, req) => {
          const call = req.json as Json;
          if (call?.params?.name !== 'get_user' || !(answer.body as Json)?.result?.isError) return;
          return {
            status: 200,
            body: { jsonrpc: '2.0', id: call.id, error: { code: -32603, message: 'Internal error' } },
          };
        },
      },
    ],
  },
];

/** Choices the seeds leave open ("not shown"), made otherwise than the kit made them. */
export const VARIATIONS: Variation[] = [
  {
    name: 'POST /users answers 200',
    choice: 'the success status of creating a user is not shown; the kit chose 201',
    noticedBy: 'v1.users.create.contract.assumed',
    rewrites: () => [
      {
        method: 'POST',
        path: `${V1}/users`,
        response: (a) => {
          if (a.status === 201) a.status = 200;
        },
      },
    ],
  },
  {
    name: 'POST /groups answers 200',
    choice: 'the success status of creating a group is not shown; the kit chose 201',
    noticedBy: 'v1.groups.create-and-detach.assumed',
    rewrites: () => [
      {
        method: 'POST',
        path: `${V1}/groups`,
        response: (a) => {
          if (a.status === 201) a.status = 200;
        },
      },
    ],
  },
  {
    name: 'assigning a course answers 201',
    choice: 'the success status of POST /courses/{courseId}/assignments is not shown; the kit chose 200',
    noticedBy: 'v1.users.assign-and-list.assumed',
    rewrites: () => [
      {
        method: 'POST',
        path: /^\/openapi\/v1\/courses\/\d+\/assignments$/,
        response: (a) => {
          if (a.status === 200) a.status = 201;
        },
      },
    ],
  },
  {
    name: 'v1 without a key answers 403 {message}',
    choice: 'the answer to a missing or invalid key is not shown; the kit chose 401 {status, message}',
    noticedBy: 'v1.auth.no-key.listCourses.assumed',
    rewrites: () => [
      {
        path: /^\/openapi\/v1\//,
        response: (a) => (a.status === 401 ? { status: 403, body: { message: 'Forbidden' } } : undefined),
      },
    ],
  },
  {
    name: 'get_user without the profile fields',
    choice:
      'get_user gives "name, e-mail, role, group memberships, status"; the kit added language, occupation, location, timezone',
    noticedBy: 'v2.users.detail.contract.assumed',
    rewrites: () => [
      onAnswer('GET', /^\/api\/v2\/users\/\d+$/, (b) => {
        for (const k of ['language', 'occupation', 'location', 'timezone']) delete b[k];
      }),
    ],
  },
  {
    name: 'generation jobs report processing before they complete',
    choice: 'intermediate job states are not shown; the kit has none',
    noticedBy: 'v2.ai.generate.flow.assumed',
    rewrites: () => {
      const seen = new Set<string>();
      return [
        onAnswer('GET', /^\/api\/v2\/ai\/courses\/generate\/[^/]+$/, (b) => {
          if (seen.has(b.jobId)) return;
          seen.add(b.jobId);
          b.status = 'processing';
          delete b.result;
        }),
      ];
    },
  },
  {
    name: 'v2 unknown ids answered 422 with code USER_NOT_FOUND',
    choice: 'the refusal of an unknown id is not shown; the kit chose 404 NOT_FOUND',
    noticedBy: 'v2.not-found.getUser.assumed',
    rewrites: () => [
      {
        path: /^\/api\/v2\//,
        response: (a) =>
          a.status === 404
            ? { status: 422, body: { error: 'No such user.', code: 'USER_NOT_FOUND' } }
            : undefined,
      },
    ],
  },
  {
    name: 'a read-only key on a write answers 403 FORBIDDEN',
    choice:
      'the 403 code for a missing scope is not shown ("varies per endpoint"); the kit chose WRITE_SCOPE_REQUIRED',
    noticedBy: 'v2.scope.read-key.banUser.assumed',
    rewrites: () => [
      {
        path: /^\/api\/v2\//,
        response: (a) => {
          if (a.status === 403 && (a.body as Json).code === 'WRITE_SCOPE_REQUIRED')
            (a.body as Json).code = 'FORBIDDEN';
        },
      },
    ],
  },
  {
    name: 'clone_course answers 200',
    choice: 'the success status of cloning is not shown; the kit chose 201',
    noticedBy: 'v2.courses.clone.assumed',
    rewrites: () => [
      {
        method: 'POST',
        path: `${V2}/courses/clone`,
        response: (a) => {
          if (a.status === 201) a.status = 200;
        },
      },
    ],
  },
  {
    name: 'ban and unban answer 204 without a body',
    choice: 'the answer of ban_user and unban_user is not shown; the kit chose 200 {userId, status}',
    noticedBy: 'v2.users.ban-unban.assumed',
    rewrites: () => [
      {
        path: /^\/api\/v2\/users\/banned/,
        response: (a) => (a.status === 200 ? { status: 204 } : undefined),
      },
    ],
  },
];
