// Probes of the documented refusals, one per operation: an unknown target answers 404 and a
// malformed request 400, with the error body of its API (seed 001, Errors: {status, message};
// seed 000, Errors: {error, code}). Seed 000 does not show its 404 and 400 (the kit assumed them):
// any refusal in `{error, code}` keeps the seed. Read-only: the requests are harmless
// (./harmless.ts), or malformed so that nothing can change.
//
// The contracts give them (`deriveRefusals`): an operation with a path parameter that names a record
// (an integer, or a string that is not one of a list) and a documented 404 gets a probe with an id
// that cannot exist (its harmless request, an integer id set to UNKNOWN_ID); one with a documented 400
// and a path parameter whose documented schema refuses a value (a non-integer, a string breaking the
// pattern, a value outside the list) gets a probe with that value. OVERRIDES holds only what differs:
// a seed rule of its own, a refusal of a body or query the path does not show, or no probe at all.
import type { PathOperations as V1Operations } from '../../../generated/v1.ts';
import type { PathOperations as V2Operations } from '../../../generated/v2.ts';
import { type Node, operations, resolveRef } from '../../../lib/spec-walk.ts';
import { type Context, loadContract } from '../../context.ts';
import { documentedSchema } from '../../documented.ts';
import type { Check } from '../../types.ts';
import { keyHeaders, UNKNOWN_ID } from '../common/discover.ts';
import { judge, type Request } from '../common/judge.ts';
import { harmless, operationRules } from './harmless.ts';
import { probe, specOf } from './probe.ts';

export type RefusalKind = 'not-found' | 'malformed';
type ApiName = 'v1' | 'v2';

export interface Refusal {
  operationId: string;
  /** What is wrong with the request, for the title. */
  what: string;
  request: (ctx: Context) => Request;
  expect: number[];
  /** The seed rules it judges; without, the operation's (OPERATION_RULES of ./harmless.ts). */
  rules?: string[];
}

/**
 * An entry of the override table: what differs from the refusal the contract gives (or, where it
 * gives none, the whole refusal: `what`, `request` and `expect`); `false` for no probe.
 */
export type Override = Partial<Omit<Refusal, 'operationId'>> | false;
export type Overrides = Record<RefusalKind, Record<string, Override | undefined>>;

// --- What the contract gives ---

interface PathParameter {
  name: string;
  /** The schema as the contract has it, the kit's choices included. */
  schema: Node;
}

const pathParameters = (spec: Node, parameters: Node[]): PathParameter[] =>
  parameters
    .map((p) => resolveRef(spec, p) as Node)
    .filter((p) => p?.in === 'path')
    .map((p) => ({ name: p.name as string, schema: resolveRef(spec, p.schema) ?? {} }));

/** A path parameter that names a record: an integer, or a string that is not one of a list. */
const namesRecord = (schema: Node) =>
  schema.type === 'integer' || (schema.type === 'string' && !schema.enum && schema.const === undefined);

/** Strings tried, in order, for one the schema refuses. */
const REFUSED_STRINGS = ['abc', 'no such value!'];

/**
 * A value of a path parameter that its documented schema refuses, and how a title says so; none where
 * the seed states nothing the value could break (a part the kit assumed, `x-assumed`, accepts anything).
 */
export function refusedValue(schema: Node): { value: string; what: string } | undefined {
  const s = documentedSchema(schema) as Node;
  if (s.type === 'integer') return { value: 'abc', what: 'that is not an integer' };
  if (s.type === 'number') return { value: 'abc', what: 'that is not a number' };
  if (s.type !== 'string') return undefined;
  if (Array.isArray(s.enum)) {
    const value = REFUSED_STRINGS.find((v) => !s.enum.includes(v));
    if (value) return { value, what: `that is not one of its ${s.enum.length} values` };
  }
  if (typeof s.pattern === 'string') {
    const pattern = new RegExp(s.pattern, 'u');
    const value = REFUSED_STRINGS.find((v) => !pattern.test(v));
    if (value) return { value, what: 'that does not match its pattern' };
  }
  if (typeof s.maxLength === 'number')
    return { value: 'x'.repeat(s.maxLength + 1), what: `longer than ${s.maxLength} characters` };
  return undefined;
}

/** `courseId` → `course id`. */
const words = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
/** `an` before a vowel sound (`a user id`, `an event`). */
const withArticle = (phrase: string) => `${/^([aeio]|un)/.test(phrase) ? 'an' : 'a'} ${phrase}`;

/**
 * The rules a seed states of a path parameter wherever it appears; the malformed probe of any
 * operation with that parameter judges them.
 */
const PATH_PARAMETER_RULES: Record<ApiName, Record<string, string[]>> = {
  v1: {
    courseId: ['001/courses.id-integer'],
    groupId: ['001/groups.id-integer'],
    event: ['001/webhooks.dot-notation'],
  },
  v2: {},
};

/**
 * Seed 001: "400 validation failed". An id that is not an integer may also be taken for an unknown
 * target (404) where the operation documents one: both refuse it, neither changes anything. Seed 000
 * states its ids as integers required (get_user, get_course, …): 400.
 */
const malformedExpect = (api: ApiName, documents404: boolean) =>
  api === 'v1' && documents404 ? [400, 404] : [400];

const withParams = (request: Request, params: Record<string, string | number>): Request =>
  Object.keys(params).length ? { ...request, params: { ...request.params, ...params } } : request;

type HarmlessOf = (operationId: string) => (ctx: Context) => Request;

/**
 * The refusal probes a contract gives, by kind, in its operations' order. Their requests start from
 * each operation's harmless request (`harmlessOf`, read when the probe runs), which names an id of a
 * string parameter that no record has.
 */
export function deriveRefusals(
  spec: Node,
  api: ApiName,
  harmlessOf: HarmlessOf,
): Record<RefusalKind, Refusal[]> {
  const out: Record<RefusalKind, Refusal[]> = { 'not-found': [], malformed: [] };
  for (const { operation, parameters } of operations(spec)) {
    const operationId = operation.operationId as string;
    const documents = (status: number) => Boolean(operation.responses?.[String(status)]);
    const params = pathParameters(spec, parameters);
    const ids = params.filter((p) => namesRecord(p.schema));
    const [named] = ids;
    if (documents(404) && named) {
      const unknown = Object.fromEntries(
        ids.filter((p) => p.schema.type === 'integer').map((p) => [p.name, UNKNOWN_ID]),
      );
      out['not-found'].push({
        operationId,
        what: `an unknown ${words(named.name).replace(/ id$/, '')}`,
        request: (ctx) => withParams(harmlessOf(operationId)(ctx), unknown),
        expect: [404],
      });
    }
    const refused = params.map((p) => ({ p, r: refusedValue(p.schema) })).find(({ r }) => r);
    if (documents(400) && refused?.r) {
      const { p, r } = refused;
      out.malformed.push({
        operationId,
        what: `${withArticle(words(p.name))} ${r.what}`,
        request: (ctx) => withParams(harmlessOf(operationId)(ctx), { [p.name]: r.value }),
        expect: malformedExpect(api, documents(404)),
        rules: PATH_PARAMETER_RULES[api][p.name],
      });
    }
  }
  return out;
}

/**
 * The refusal probes of a contract: what it gives, with the overrides applied, in its operations'
 * order. An override of an operation the contract lacks, a `false` where it gives nothing, or an
 * incomplete refusal where it gives none, is an error naming the entry.
 */
export function refusalsOf(
  spec: Node,
  api: ApiName,
  overrides: Overrides,
  harmlessOf: HarmlessOf = (operationId) => harmless(api, operationId),
): Record<RefusalKind, Refusal[]> {
  const derived = deriveRefusals(spec, api, harmlessOf);
  const operationIds = operations(spec).map((o) => o.operation.operationId as string);
  const entry = (kind: RefusalKind, operationId: string) =>
    `the ${kind} override of ${operationId} (OVERRIDES.${api} in conformance/checks/probes/refusals.ts)`;
  const out = {} as Record<RefusalKind, Refusal[]>;
  for (const kind of ['not-found', 'malformed'] as const) {
    const given = new Map(derived[kind].map((r) => [r.operationId, r]));
    for (const operationId of Object.keys(overrides[kind]))
      if (!operationIds.includes(operationId))
        throw new Error(`${entry(kind, operationId)} names an operation openapi/${api} does not have`);
    out[kind] = operationIds.flatMap((operationId): Refusal[] => {
      const d = given.get(operationId);
      const o = overrides[kind][operationId];
      if (o === undefined) return d ? [d] : [];
      if (o === false) {
        if (!d) throw new Error(`${entry(kind, operationId)} leaves out a probe the contract does not give`);
        return [];
      }
      const r = { ...d, ...o, operationId };
      if (!r.what || !r.request || !r.expect)
        throw new Error(
          `${entry(kind, operationId)}: the contract gives no probe (no path parameter it could judge), so the entry needs what, request and expect`,
        );
      return [r as Refusal];
    });
  }
  return out;
}

// --- What differs from the contract ---

type PerApi<T> = {
  v1: Record<RefusalKind, Partial<Record<keyof V1Operations, T>>>;
  v2: Record<RefusalKind, Partial<Record<keyof V2Operations, T>>>;
};

/**
 * One entry per operation whose probe differs from what its contract gives, each saying why. The
 * responses no probe provokes on purpose are in conformance/unprobed.ts, with the reason.
 */
export const OVERRIDES: PerApi<Override> = {
  v1: {
    'not-found': {
      // The user is named in the body, not the path (seed 001: POST /users/blocked `{id}`).
      blockUser: {
        what: 'an unknown user',
        request: harmless('v1', 'blockUser'),
        expect: [404],
        rules: ['001/users.ban-unknown'],
      },
      // Seed 001 documents each of these 404s with a rule of its own.
      updateUser: { rules: ['001/users.not-found'] },
      // Seed 001: "404 when the user is missing".
      listUserAssignments: { rules: ['001/assignments.user-list-not-found'] },
      // Seed 001, Endpoints > Groups: "404 group not found".
      updateGroup: { rules: ['001/groups.not-found'] },
      // Seed 001, Endpoints > Groups: "404 group not found".
      getGroupStatistics: { rules: ['001/groups.not-found'] },
      // Seed 001: "course detail object; 404 when not found".
      getCourse: { rules: ['001/courses.not-found'] },
      // Seed 001: "404 when the course is missing".
      assignCourse: { rules: ['001/assignments.assign-not-found'] },
      // Seed 001: "404 when the course is missing".
      listCourseAssignments: { rules: ['001/assignments.course-list-not-found'] },
      // The event is a type, not a record: its 404 says no event of that type was sent (seed 001,
      // Endpoints > Webhook last event: "404 when none").
      getLastWebhookEvent: { what: 'an event type never sent', rules: ['001/webhooks.last-none'] },
    },
    malformed: {
      // No path parameter: the query's offset is an integer (seed 001, Endpoints > Courses
      // and assignments).
      listCourses: {
        what: 'an offset that is not an integer',
        request: () => ({ query: { offset: 'abc' } }),
        expect: [400],
        rules: ['001/courses.offset'],
      },
      // No path parameter: the body's required id is missing (seed 001: `{id: string required}`).
      blockUser: {
        what: 'no user id',
        request: () => ({ body: {} }),
        expect: [400],
        rules: ['001/users.ban-id-required'],
      },
    },
  },
  v2: {
    'not-found': {
      // The user is named in the body, not the path (seed 000: POST /users/banned `{userId}`).
      banUser: { what: 'an unknown user', request: harmless('v2', 'banUser'), expect: [404] },
      // The course is named in the body (seed 000: clone_course `{courseId}`).
      cloneCourse: { what: 'an unknown course', request: harmless('v2', 'cloneCourse'), expect: [404] },
      // The session is named in the body (seed 000: process_source_material `{sessionId, fileId}`).
      processSourceMaterial: {
        what: 'an unknown session',
        request: harmless('v2', 'processSourceMaterial'),
        expect: [404],
      },
      // A refused AI call may count against the day's AI quota (conformance/unprobed.ts).
      refineCourse: false,
      // A refused AI call may count against the day's AI quota (conformance/unprobed.ts).
      regenerateQuestion: false,
      // A refused AI call may count against the day's AI quota (conformance/unprobed.ts).
      regenerateLesson: false,
    },
    malformed: {
      // No path parameter: the query seed 000 requires is missing.
      searchUsers: {
        what: 'no query',
        request: () => ({ query: { limit: 5 } }),
        expect: [400],
        rules: ['000/find-user.query-required'],
      },
      // Seed 000, get_user: "`userId` integer required", a rule of its own.
      getUser: { rules: ['000/get-user.user-id'] },
      // No path parameter: the query seed 000 requires is missing.
      searchCourses: {
        what: 'no query',
        request: () => ({ query: { limit: 5 } }),
        expect: [400],
        rules: ['000/find-course.query-required'],
      },
      // Seed 000, get_course: "`courseId` integer required", a rule of its own.
      getCourse: { rules: ['000/get-course.course-id'] },
      // Seed 000, get_compliance_status: "`courseId` integer required", a rule of its own.
      getCourseUserStatistics: { rules: ['000/compliance.course-id'] },
      // Seed 000, list_certificates: "`userId` integer required", a rule of its own.
      listUserCertificates: { rules: ['000/certificates.user-id'] },
      // No path parameter: the query's limit is an integer.
      getLeaderboard: {
        what: 'a limit that is not an integer',
        request: () => ({ query: { limit: 'ten' } }),
        expect: [400],
      },
      // No path parameter: the window's start is a date (seed 000, get_audit_log).
      listAuditLog: {
        what: 'a window start that is not a date',
        request: () => ({ query: { 'fields[createdAt][from]': 'yesterday' } }),
        expect: [400],
        rules: ['000/audit.date-format'],
      },
      // The body is what this operation alone checks (seed 000, assign_training: `userId` integer
      // required); a course id that is not an integer is getCourse's probe.
      assignUserToCourse: {
        what: 'no user id',
        request: () => ({ params: { courseId: UNKNOWN_ID }, body: {} }),
        rules: ['000/assign-training.required'],
      },
      // The body is what this operation alone checks (bulk_assign's list of groups).
      assignCourseToGroups: {
        what: 'groups that are not a list',
        request: () => ({ params: { courseId: UNKNOWN_ID }, body: { groups: 'all' } }),
      },
      // The body is what this operation alone checks (its list of users).
      assignCourseChain: {
        what: 'users that are not a list',
        request: () => ({ params: { chainId: UNKNOWN_ID }, body: { users: 'all' } }),
      },
      // No path parameter: the body's user id is not an integer.
      banUser: {
        what: 'a user id that is not an integer',
        request: () => ({ body: { userId: 'abc' } }),
        expect: [400],
      },
      // The body is what this operation alone checks (change_user_email: an e-mail address).
      changeUserEmail: {
        what: 'an address that is not an e-mail',
        request: () => ({ params: { userId: UNKNOWN_ID }, body: { email: 'not an e-mail' } }),
      },
      // No path parameter: the body's course id is required.
      cloneCourse: { what: 'no course id', request: () => ({ body: {} }), expect: [400] },
      // No path parameter: a multipart body without its file.
      uploadSourceMaterial: {
        what: 'no file',
        request: () => {
          const form = new FormData();
          form.append('sessionId', 'lmskit-probe');
          return { body: form };
        },
        expect: [400],
      },
      // No path parameter: the body's session is required.
      processSourceMaterial: { what: 'no session', request: () => ({ body: {} }), expect: [400] },
      // A refused AI call may count against the day's AI quota; refine_course's 400 is judged by the
      // AI refusals (conformance/checks/v2/ai-refusals.ts).
      refineCourse: false,
      // A refused AI call may count against the day's AI quota (conformance/unprobed.ts).
      regenerateQuestion: false,
      // A refused AI call may count against the day's AI quota (conformance/unprobed.ts).
      regenerateLesson: false,
    },
  },
};

const refusalChecks = (api: ApiName, kind: RefusalKind, refusals: Refusal[]): Check[] =>
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

const V1 = refusalsOf(loadContract('v1'), 'v1', OVERRIDES.v1);
const V2 = refusalsOf(loadContract('v2'), 'v2', OVERRIDES.v2);

export const refusalProbes: Check[] = [
  ...refusalChecks('v1', 'not-found', V1['not-found']),
  ...refusalChecks('v1', 'malformed', V1.malformed),
  ...refusalChecks('v2', 'not-found', V2['not-found']),
  ...refusalChecks('v2', 'malformed', V2.malformed),
];
