// Departures from seed 001, the Integration REST API: its reads, the users, attributes and groups
// the writes make (conformance/checks/v1/), and the probes of its keys and refusals
// (conformance/checks/probes/). The v1 data rules and events: ./v1-data.ts.
import type { Departure, Json } from './kit.ts';
import {
  DEMO_SITE_API_KEY,
  dropFields,
  fake,
  lendKey,
  onAnswer,
  onRequest,
  onStatus,
  pad,
  UNKNOWN_ID,
  user,
  V1,
  V1_ANY,
  V1_ASSIGN,
  V1_GROUP,
  V1_USER,
} from './kit.ts';

export const V1_DEPARTURES: Departure[] = [
  // --- v1 (seed 001) ---
  {
    name: 'GET /statistics answered without a key',
    seed: '001 Authentication: "Every endpoint requires header X-API-KEY"',
    catches: 'v1.auth.no-key.getStatistics',
    rewrites: () => [lendKey('GET', `${V1}/statistics`, 'x-api-key', DEMO_SITE_API_KEY)],
  },
  {
    name: 'a ban accepted without a key',
    seed: '001 Authentication: "Every endpoint requires header X-API-KEY"',
    catches: 'v1.auth.no-key.blockUser',
    rewrites: () => [lendKey('POST', `${V1}/users/blocked`, 'x-api-key', DEMO_SITE_API_KEY)],
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
    rewrites: () => [dropFields('POST', `${V1}/users`, 'courses')],
  },
  {
    name: 'a PATCH answered 200 but not kept',
    seed: '001 Users: "PATCH /users/{userId} | body below | 200, no body"',
    catches: 'v1.users.patch',
    rewrites: () => [
      fake(
        'PATCH',
        V1_USER,
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
        V1_USER,
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
        V1_ASSIGN,
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
    rewrites: () => [onStatus(V1_ANY, 404, (b) => void delete b.status)],
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
      onRequest('PATCH', V1_GROUP, (req) => {
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
];
