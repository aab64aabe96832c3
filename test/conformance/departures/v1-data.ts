// Departures of seed 001's data rules (conformance/checks/v1/): attribute types and values, the
// required fields, deadlines and assignAt, group attributes by name, the statistics' users and
// leaders. The webhook events: ./v1-webhooks.ts.
import type { Answer, ProxiedRequest } from '../proxy.ts';
import type { Departure, Json } from './kit.ts';
import {
  dropFields,
  fake,
  onAnswer,
  onRequest,
  onStatus,
  V1,
  V1_ASSIGN,
  V1_COURSE_ASSIGNMENTS,
  V1_GROUP,
  V1_USER,
  V1_USER_ASSIGNMENTS,
  V2_USER,
} from './kit.ts';

const GROUP_STATISTICS = /^\/openapi\/v1\/groups\/\d+\/statistics$/;
const ATTRIBUTES = /^\/openapi\/v1\/custom\/attributes\/(users|groups)$/;

/** A 400 whose errors all concern attribute values: what a deployment that checks none would accept. */
const onlyValueErrors = (answer: Answer) => {
  const keys = Object.keys((answer.body as Json)?.errors ?? {});
  return answer.status === 400 && keys.length > 0 && keys.every((k) => k.startsWith('attributes.'));
};

/** The user a deployment answers for a creation it accepted without checking. */
const acceptedUser = (req: ProxiedRequest) => {
  const sent = req.json as Json;
  return {
    id: `unchecked${Date.now().toString(36)}`,
    name: sent.name,
    language: 'en',
    email: sent.email,
    isBanned: false,
    role: { alias: sent.roleAlias },
    fromApi: true,
    image: null,
    attributes: sent.attributes ?? {},
  };
};

export const V1_DATA_DEPARTURES: Departure[] = [
  // --- custom attributes ---
  {
    name: 'external links stored as text attributes',
    seed: '001 Custom attribute: "type ... 1 text, 2 date, 3 single choice, 4 multiple choice, 5 user choice, 6 yes/no, 7 external link, 8 number"',
    catches: 'v1.attributes.type-values',
    rewrites: () => [
      onAnswer('POST', ATTRIBUTES, (b: Json) => {
        for (const a of Array.isArray(b) ? b : []) if (a.type === 7) a.type = 1;
      }),
    ],
  },
  {
    name: 'an attribute without isVisible accepted',
    seed: '001 Custom attributes: "isVisible required" ("isVisible | boolean | required in requests")',
    catches: 'v1.attributes.required-fields',
    rewrites: () => [
      onRequest('POST', ATTRIBUTES, (req) => {
        for (const a of Array.isArray(req.json) ? (req.json as Json[]) : []) a.isVisible ??= false;
      }),
    ],
  },
  {
    name: "attribute errors without the seed's messages",
    seed: '001 Custom attributes: "messages: name is required, invalid attribute type, options required for choice type attributes"',
    catches: 'v1.attributes.error-messages',
    rewrites: () => [
      onStatus(
        ATTRIBUTES,
        400,
        (b) => {
          if (!b.errors) return;
          b.message = 'Bad request';
          for (const k of Object.keys(b.errors)) b.errors[k] = ['is invalid'];
        },
        'POST',
      ),
    ],
  },
  {
    name: 'attribute values unchecked',
    seed: '001 Custom attribute: "Type rules: ... date (2) ISO format; ... number (8) must be numeric"',
    catches: 'v1.attributes.date-iso',
    alsoFails: ['v1.attributes.number-numeric', 'v1.groups.attribute-validation'],
    rewrites: () => [
      {
        method: 'POST',
        path: `${V1}/users`,
        response: (answer, req) =>
          onlyValueErrors(answer) ? { status: 201, body: acceptedUser(req) } : undefined,
      },
      {
        method: 'PATCH',
        path: V1_GROUP,
        response: (answer, req) =>
          onlyValueErrors(answer)
            ? {
                status: 200,
                body: {
                  id: Number(req.path.split('/').pop()),
                  parentId: null,
                  name: (req.json as Json).name,
                  description: '',
                  usersCount: 0,
                  coursesCount: 0,
                  image: null,
                  attributes: (req.json as Json).attributes ?? {},
                },
              }
            : undefined,
      },
    ],
  },
  {
    name: 'yes/no values answered as strings',
    seed: '001 Custom attribute: "yes/no (6) stored as boolean"',
    catches: 'v1.users.attributes',
    rewrites: () => [
      onAnswer('POST', `${V1}/users`, (b: Json) => {
        for (const [k, v] of Object.entries(b.attributes ?? {}))
          if (typeof v === 'boolean') b.attributes[k] = v ? 'yes' : 'no';
      }),
    ],
  },
  // --- users ---
  {
    name: 'deadlines dropped',
    seed: '001 Users: "deadlineAt integer (deadline for those assignments)"; Courses and assignments: "deadlineAt integer UTC timestamp of the completion deadline"',
    catches: 'v1.users.create.deadline',
    alsoFails: ['v1.assignments.deadline'],
    rewrites: () => [
      dropFields('POST', `${V1}/users`, 'deadlineAt'),
      dropFields('POST', V1_ASSIGN, 'deadlineAt'),
    ],
  },
  {
    name: 'a user without roleAlias accepted',
    seed: '001 Users: "roleAlias string required"',
    catches: 'v1.users.create.required-fields',
    rewrites: () => [
      onRequest('POST', `${V1}/users`, (req) => {
        const body = req.json as Json;
        if (body && typeof body === 'object') body.roleAlias ??= 'learner';
      }),
    ],
  },
  {
    name: 'a given user id replaced by a generated one',
    seed: '001 Users: "id string optional (generated when omitted)"',
    catches: 'v1.users.create.id-given',
    rewrites: () => [dropFields('POST', `${V1}/users`, 'id')],
  },
  {
    name: 'occupation and location dropped at creation',
    seed: '001 Users: "bio string; occupation string; location string; timezone string (TZ name)"',
    catches: 'v1.users.create.profile-fields',
    rewrites: () => [dropFields('POST', `${V1}/users`, 'occupation', 'location')],
  },
  {
    name: 'a PATCH without email accepted',
    seed: '001 Users: "email (string, listed required, unique)"',
    catches: 'v1.users.patch.email-required',
    rewrites: () => [
      fake(
        'PATCH',
        V1_USER,
        (req) => (req.json as Json)?.email === undefined,
        () => ({ status: 200 }),
      ),
    ],
  },
  {
    name: 'a PATCH resets the API-management flag it leaves out',
    seed: '001 Users: "plus optional full name, password, role alias, API-management flag (boolean)"',
    catches: 'v1.users.patch.optional-kept',
    rewrites: () => [
      onRequest('PATCH', V1_USER, (req) => {
        const body = req.json as Json;
        if (body && typeof body === 'object') body.fromApi ??= true;
      }),
    ],
  },
  {
    name: "a PATCH taking another user's e-mail accepted",
    seed: '001 Users: "email (string, listed required, unique)"',
    catches: 'v1.users.patch.email-unique',
    rewrites: () => [
      {
        method: 'PATCH',
        path: V1_USER,
        response: (answer) =>
          answer.status === 400 && (answer.body as Json)?.errors?.email ? { status: 200 } : undefined,
      },
    ],
  },
  {
    name: 'blocking courses without their expert counts',
    seed: '001 Users: "data.courses (items with id, name, expertHomeworks, expertClassworks)"',
    catches: 'v1.users.ban.expert-courses',
    rewrites: () => [
      onStatus(
        `${V1}/users/blocked`,
        422,
        (b) => {
          for (const c of b.data?.courses ?? []) {
            delete c.expertHomeworks;
            delete c.expertClassworks;
          }
        },
        'POST',
      ),
    ],
  },
  {
    name: 'an expert banned although the ban was refused',
    seed: '001 States and transitions: "active | POST /users/blocked | user is expert on courses | active | 422 with the blocking courses"',
    catches: 'v1.users.ban.expert-stays-active',
    rewrites: () => [
      onAnswer('GET', V2_USER, (b: Json) => {
        if (b.email === 'otto@demo.example') b.status = 'banned';
      }),
    ],
  },
  // --- groups ---
  {
    name: 'group attributes keyed by a slug of their name',
    seed: '001 Group: "attributes | object | custom group attributes keyed by attribute name"',
    catches: 'v1.groups.attributes-by-name',
    rewrites: () => {
      const slug = (attributes: Json) =>
        Object.fromEntries(
          Object.entries(attributes ?? {}).map(([k, v]) => [k.toLowerCase().replace(/\W+/g, '_'), v]),
        );
      return [
        onAnswer('PATCH', V1_GROUP, (b: Json) => {
          b.attributes = slug(b.attributes);
        }),
        onAnswer('GET', GROUP_STATISTICS, (b: Json) => {
          b.group.attributes = slug(b.group.attributes);
        }),
      ];
    },
  },
  {
    name: 'a group PATCH without name accepted',
    seed: '001 Groups: "PATCH /groups/{groupId} | name string required"',
    catches: 'v1.groups.update-name-required',
    rewrites: () => [
      onRequest('PATCH', V1_GROUP, (req) => {
        const body = req.json as Json;
        if (body && typeof body === 'object') body.name ??= 'lmskit renamed by a PATCH without name';
      }),
    ],
  },
  {
    name: "a group's new member missing from usersWithoutActivity",
    seed: '001 Groups: "usersWithoutActivity, usersWithoutResults (arrays of users: id, name, email, role)"',
    catches: 'v1.groups.statistics.members',
    rewrites: () => [
      onAnswer('GET', GROUP_STATISTICS, (b: Json) => {
        b.usersWithoutActivity = [];
      }),
    ],
  },
  {
    name: "a group's leaders without their user",
    seed: '001 Groups: "leaders (array of {coursesCount integer, resultValue integer, user})"',
    catches: 'v1.groups.statistics.leaders',
    rewrites: () => [
      onAnswer('GET', GROUP_STATISTICS, (b: Json) => {
        for (const l of b.leaders ?? []) delete l.user;
      }),
    ],
  },
  {
    name: "leaders' resultValue the best result, not the average",
    seed: '001 Statistics: "leaders (coursesCount, resultValue average 0-100, user)"',
    catches: 'v1.statistics.leader-fields',
    rewrites: () => [
      onAnswer('GET', `${V1}/statistics`, (b: Json) => {
        for (const l of b.leaders ?? []) if (l.user) l.resultValue = Math.min(100, l.resultValue + 30);
      }),
    ],
  },
  // --- assignments ---
  {
    name: 'assignAt ignored',
    seed: '001 Courses and assignments: "assignAt integer UTC timestamp when the assignment starts"',
    catches: 'v1.assignments.assign-at',
    rewrites: () => [dropFields('POST', V1_ASSIGN, 'assignAt')],
  },
  {
    name: 'assignment timestamps as ISO strings',
    seed: '001 Assignment: "assignedAt, startedAt, deadlineAt, finishedAt (integer timestamps)"',
    catches: 'v1.assignments.timestamps',
    rewrites: () => [
      onAnswer('GET', V1_USER_ASSIGNMENTS, (b: Json) => {
        for (const a of b.assignments ?? [])
          if (typeof a.assignedAt === 'number') a.assignedAt = new Date(a.assignedAt * 1000).toISOString();
      }),
    ],
  },
  {
    name: "a nested course without name in a user's assignments",
    seed: '001 Assignment: "plus course (course object) in a user\'s list"; Course: "name | string"',
    catches: 'v1.assignments.user.contract',
    rewrites: () => [
      onAnswer('GET', V1_USER_ASSIGNMENTS, (b: Json) => {
        for (const a of b.assignments ?? []) delete a.course?.name;
      }),
    ],
  },
  {
    name: "progressValue as a fraction in a course's assignments",
    seed: '001 Assignment: "progressValue integer 0-100"',
    catches: 'v1.assignments.lists-agree',
    rewrites: () => [
      onAnswer('GET', V1_COURSE_ASSIGNMENTS, (b: Json) => {
        for (const a of b.assignments ?? []) a.progressValue /= 100;
      }),
    ],
  },
  {
    name: 'a group assignment answered but not made',
    seed: '001 Courses and assignments: "groups array of group IDs ... listing those successfully assigned"',
    catches: 'v1.assignments.assign-groups',
    rewrites: () => {
      // The groups' names as they were made, so that only the missing assignment gives it away.
      const names = new Map<number, string>();
      return [
        onAnswer('POST', `${V1}/groups`, (b: Json) => void names.set(b.id, b.name)),
        fake(
          'POST',
          V1_ASSIGN,
          (req) => ((req.json as Json)?.groups ?? []).length > 0 && !(req.json as Json)?.users?.length,
          (req) => ({
            status: 200,
            body: {
              users: [],
              groups: (req.json as Json).groups.map((id: number) => ({
                id,
                name: names.get(id) ?? `group ${id}`,
                usersCount: 1,
                coursesCount: 1,
              })),
            },
          }),
        ),
      ];
    },
  },
  {
    name: 'unknown users listed as assigned',
    seed: '001 Courses and assignments: "listing those successfully assigned"',
    catches: 'v1.assignments.assign-only-successful',
    rewrites: () => [
      onAnswer('POST', V1_ASSIGN, (b: Json, req) => {
        b.users = ((req.json as Json)?.users ?? []).map((id: string) => ({
          id,
          name: id,
          email: `${id}@example.invalid`,
          role: { alias: 'learner' },
        }));
      }),
    ],
  },
];
