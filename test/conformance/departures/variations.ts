// Legitimate variations: choices the seeds leave open, made otherwise than the kit made them.
import type { Json, Variation } from './kit.ts';
import {
  onAnswer,
  onStatus,
  restatus,
  V1,
  V1_ANY,
  V1_ASSIGN,
  V1_COURSE_ASSIGNMENTS,
  V1_LAST_EVENT,
  V1_USER_ASSIGNMENTS,
  V2,
  V2_ANY,
  V2_GENERATION_JOB,
  V2_USER,
  V2_USER_CERTIFICATES,
} from './kit.ts';

/** Choices the seeds leave open ("not shown"), made otherwise than the kit made them. */
export const VARIATIONS: Variation[] = [
  {
    name: 'POST /users answers 200',
    choice: 'the success status of creating a user is not shown; the kit chose 201',
    noticedBy: 'v1.users.create.contract.assumed',
    rewrites: () => [restatus('POST', `${V1}/users`, 201, 200)],
  },
  {
    name: 'POST /groups answers 200',
    choice: 'the success status of creating a group is not shown; the kit chose 201',
    noticedBy: 'v1.groups.create-and-detach.assumed',
    rewrites: () => [restatus('POST', `${V1}/groups`, 201, 200)],
  },
  {
    name: 'assigning a course answers 201',
    choice: 'the success status of POST /courses/{courseId}/assignments is not shown; the kit chose 200',
    noticedBy: 'v1.users.assign-and-list.assumed',
    rewrites: () => [restatus('POST', V1_ASSIGN, 200, 201)],
  },
  {
    name: 'v1 without a key answers 403 {message}',
    choice: 'the answer to a missing or invalid key is not shown; the kit chose 401 {status, message}',
    noticedBy: 'v1.auth.no-key.listCourses.assumed',
    rewrites: () => [
      {
        path: V1_ANY,
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
      onAnswer('GET', V2_USER, (b) => {
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
        onAnswer('GET', V2_GENERATION_JOB, (b) => {
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
        path: V2_ANY,
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
      onStatus(V2_ANY, 403, (b) => {
        if (b.code === 'WRITE_SCOPE_REQUIRED') b.code = 'FORBIDDEN';
      }),
    ],
  },
  {
    name: 'clone_course answers 200',
    choice: 'the success status of cloning is not shown; the kit chose 201',
    noticedBy: 'v2.courses.clone.assumed',
    rewrites: () => [restatus('POST', `${V2}/courses/clone`, 201, 200)],
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
  // --- Fields the seeds do not list, added: nothing forbids them (read tolerantly, never a MUST) ---
  {
    name: 'v1 errors carry an extra code',
    choice:
      'seed 001 lists {status, message, errors?, data?} and does not forbid other fields; the kit sends none',
    rewrites: () => [
      {
        path: V1_ANY,
        response: (a) => {
          const b = a.body as Json;
          if (a.status >= 400 && b && typeof b === 'object') b.code = `E${a.status}`;
        },
      },
    ],
  },
  {
    name: 'v2 errors carry a requestId',
    choice:
      'seed 000 gives the error body {error, code} and does not forbid other fields; the kit sends none',
    rewrites: () => [
      {
        path: V2_ANY,
        response: (a) => {
          const b = a.body as Json;
          if (a.status >= 400 && b && typeof b === 'object') b.requestId = 'req-0001';
        },
      },
    ],
  },
  {
    name: 'v1 courses carry an extra nested object, in lists and in assignments',
    choice: 'seed 001 lists the course fields and does not forbid others; the kit sends none',
    rewrites: () => {
      const tag = (c: Json): void => {
        if (c && typeof c === 'object') c.meta = { provider: 'lms', tags: ['a'] };
      };
      return [
        onAnswer('GET', `${V1}/courses`, (b: Json) => b.courses?.forEach(tag)),
        onAnswer('GET', /^\/openapi\/v1\/courses\/\d+$/, (b: Json) => tag(b)),
        onAnswer('GET', V1_USER_ASSIGNMENTS, (b: Json) =>
          b.assignments?.forEach((x: Json) => {
            tag(x.course);
          }),
        ),
        onAnswer('GET', `${V1}/statistics`, (b: Json) => b.unassignedCourses?.forEach(tag)),
      ];
    },
  },
  {
    name: 'v1 answers carry extra top-level fields',
    choice: 'seed 001 does not forbid fields it does not list; the kit sends none',
    rewrites: () => [
      onAnswer('GET', `${V1}/statistics`, (b: Json) => {
        b.generatedAt = 1767225600;
      }),
      onAnswer('GET', `${V1}/courses`, (b: Json) => {
        b.limit = 20;
      }),
      onAnswer('POST', `${V1}/users`, (b: Json) => {
        b.createdAt = 1767225600;
      }),
      onAnswer('POST', `${V1}/groups`, (b: Json) => {
        b.externalId = null;
      }),
    ],
  },
  {
    name: 'webhook events carry an id beside occuredAt, type and body',
    choice: 'seed 001 gives the envelope occuredAt, type, body and does not forbid other fields',
    rewrites: () => [
      onAnswer('GET', V1_LAST_EVENT, (b: Json) => {
        b.id = 'evt_1';
        if (b.body?.user) b.body.user.avatar = null;
      }),
    ],
  },
  {
    name: 'v2 capabilities and users carry extra nested fields',
    choice: 'seed 000 lists the capabilities fields and does not forbid others; the kit sends none',
    rewrites: () => [
      onAnswer('GET', `${V2}/mcp/capabilities`, (b: Json) => {
        b.plan = 'enterprise';
        b.user.avatar = null;
        b.scopes.admin = false;
      }),
      onAnswer('GET', V2_USER, (b: Json) => {
        b.lastLoginAt = null;
        for (const g of b.groups ?? []) g.path = '/';
      }),
    ],
  },
  {
    name: 'generation jobs carry progress and a result with more than the course id',
    choice: 'seed 000 shows status, result.courseId and error.message and does not forbid more',
    rewrites: () => [
      onAnswer('GET', V2_GENERATION_JOB, (b: Json) => {
        b.progress = 100;
        if (b.result) b.result.title = 'x';
      }),
    ],
  },
  // --- v1 assignments (conformance/checks/v1/assignments.ts) ---
  {
    name: 'assignments show assignAt as startsAt, assignedAt the moment of assigning',
    choice:
      'the field an assignment shows its assignAt in is not shown; the kit shows it as assignedAt, this deployment as startsAt beside assignedAt',
    noticedBy: 'v1.assignments.assign-at.assumed',
    rewrites: () => {
      const apart = (b: Json) => {
        for (const a of b.assignments ?? [])
          if (typeof a.assignedAt === 'number') {
            a.startsAt = a.assignedAt;
            a.assignedAt -= 3600;
          }
      };
      return [onAnswer('GET', V1_USER_ASSIGNMENTS, apart), onAnswer('GET', V1_COURSE_ASSIGNMENTS, apart)];
    },
  },
  {
    name: 'assignments leave out startedAt and finishedAt until they happen',
    choice:
      'what a timestamp of an assignment shows before it happens is not shown; the kit sends null, this deployment leaves the field out',
    noticedBy: 'v1.assignments.timestamps.assumed',
    rewrites: () => {
      const leaveOut = (b: Json) => {
        for (const a of b.assignments ?? [])
          for (const k of ['startedAt', 'finishedAt']) if (a[k] === null) delete a[k];
      };
      return [
        onAnswer('GET', V1_USER_ASSIGNMENTS, leaveOut),
        onAnswer('GET', V1_COURSE_ASSIGNMENTS, leaveOut),
      ];
    },
  },
  {
    name: 'find_course and list_certificates name their content otherwise, with ISO dates',
    choice:
      'seed 000 states the content (courses with id, name, status, annotation; certificates with issue and expiry dates), not the field names or the time format; the kit chose `status`, `annotation`, `issuedAt`, `expiresAt` in Unix seconds',
    noticedBy: 'v2.courses.search.contract.assumed',
    rewrites: () => {
      const isoOf = (t: number | null) => (t === null ? null : new Date(t * 1000).toISOString());
      return [
        onAnswer('GET', `${V2}/courses`, (b: Json) => {
          for (const c of b.courses ?? []) {
            c.published = c.status === 'published';
            c.summary = c.annotation;
            delete c.status;
            delete c.annotation;
          }
        }),
        onAnswer('GET', V2_USER_CERTIFICATES, (b: Json) => {
          for (const c of b.certificates ?? []) {
            c.issued = isoOf(c.issuedAt);
            c.validUntil = isoOf(c.expiresAt);
            delete c.issuedAt;
            delete c.expiresAt;
          }
        }),
      ];
    },
  },
];
