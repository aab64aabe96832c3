// The mock read against the seeds rule by rule, where an audit, a fuzzer and a first-time integrator
// found it wanting: each test names the seed rule (or the contract's `x-assumed` choice) it holds
// the mock to. Every answer is also checked against the contract by the harness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components as AdminComponents } from '../../generated/admin.ts';
import type { components as V1Components } from '../../generated/v1.ts';
import { loadSpecs } from '../../mock/specs.ts';
import { defined, type Harness, ok, startHarness } from './harness.ts';

type V1 = V1Components['schemas'];

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const demo = () => h.platform.tenant('demo');
let serial = 0;
/** A new learner made through v1; answers its API id and integer id. */
async function newLearner(extra: Partial<V1['CreateUserRequest']> = {}) {
  serial++;
  const created = await h.api.v1.POST('/users', {
    body: {
      name: `Fidelity ${serial}`,
      email: `fidelity${serial}@example.test`,
      password: 'correct horse',
      roleAlias: 'learner',
      ...extra,
    },
  });
  expect(created.response.status).toBe(201);
  const apiId = ok(created).id;
  return { apiId, id: demo().userByApiId(apiId)?.id as number };
}

describe('assignAt starts the assignment (seed 001, Courses and assignments: assignAt "when the assignment starts"; x-assumed: shown as assignedAt)', () => {
  it('shows assignAt as assignedAt and keeps the learner out until then', async () => {
    const { apiId, id } = await newLearner();
    const start = h.platform.now() + 86_400;
    const course3 = { params: { path: { courseId: 3 } } };
    const assigned = await h.api.v1.POST('/courses/{courseId}/assignments', {
      ...course3,
      body: { users: [apiId], assignAt: start },
    });
    expect(assigned.response.status).toBe(200);
    const mine = await h.api.v1.GET('/users/{userId}/assignments', { params: { path: { userId: apiId } } });
    expect(mine.data?.assignments).toEqual([
      expect.objectContaining({ assignedAt: start, isCourseStarted: false }),
    ]);
    const listed = ok(await h.api.v1.GET('/courses/{courseId}/assignments/users', course3));
    expect(listed.assignments.find((a) => a.user.id === apiId)?.assignedAt).toBe(start);

    const early = await h.admin(`/tenants/demo/users/${id}/courses/3/progress`, {
      method: 'POST',
      json: { action: 'start' },
    });
    expect(early).toMatchObject({ status: 409, body: { code: 'ASSIGNMENT_NOT_STARTED' } });
    expect(demo().assignment(id, 3)?.startedAt).toBeNull();

    await h.admin('/clock/advance', { method: 'POST', json: { seconds: 86_400 } });
    const started = await h.admin(`/tenants/demo/users/${id}/courses/3/progress`, {
      method: 'POST',
      json: { action: 'start' },
    });
    expect(started.status).toBe(200);
  });

  it('shows the moment of assigning as assignedAt when no assignAt is given', async () => {
    const { apiId } = await newLearner();
    const now = h.platform.now();
    await h.api.v1.POST('/courses/{courseId}/assignments', {
      params: { path: { courseId: 4 } },
      body: { users: [apiId] },
    });
    const mine = ok(
      await h.api.v1.GET('/users/{userId}/assignments', { params: { path: { userId: apiId } } }),
    );
    expect(mine.assignments[0]?.assignedAt).toBe(now);
  });
});

describe('timezone is a TZ name (seed 001, User: timezone "TZ name")', () => {
  it.each(['Mars/Olympus', '+01:00', 'europe/berlin', 'Berlin'])(
    'refuses %s on create and on update, keyed timezone, changing nothing',
    async (timezone) => {
      const before = demo().users.size;
      const created = await h.v1('/users', {
        method: 'POST',
        json: {
          name: 'Tz',
          email: 'tz@example.test',
          password: 'correct horse',
          roleAlias: 'learner',
          timezone,
        },
      });
      expect(created.status).toBe(400);
      expect(Object.keys(created.body.errors)).toEqual(['timezone']);
      expect(demo().users.size).toBe(before);

      const updated = await h.v1('/users/lena', {
        method: 'PATCH',
        json: { email: 'lena@demo.example', timezone },
      });
      expect(updated.status).toBe(400);
      expect(updated.body.errors.timezone[0]).toContain(timezone);
      expect(demo().userByApiId('lena')?.timezone).not.toBe(timezone);
    },
  );

  it('names the spelling the database uses when only the case is wrong', async () => {
    const { body } = await h.v1('/users/lena', {
      method: 'PATCH',
      json: { email: 'lena@demo.example', timezone: 'europe/berlin' },
    });
    expect(body.errors.timezone).toEqual([expect.stringContaining('did you mean Europe/Berlin?')]);
  });

  it.each(['Europe/Berlin', 'UTC', 'Etc/UTC', 'US/Eastern', 'Asia/Calcutta', 'America/Port-au-Prince'])(
    'accepts %s, a canonical name or a link of the IANA database',
    async (timezone) => {
      const { apiId } = await newLearner({ timezone });
      expect(demo().userByApiId(apiId)?.timezone).toBe(timezone);
    },
  );
});

describe('custom attribute apiIds and stored values (seed 001, Custom attributes: apiId unique when provided; users matched by id, groups by apiId)', () => {
  const userAttr = (over: Partial<V1['UserAttributeRequest']>): V1['UserAttributeRequest'] => ({
    name: 'Attr',
    type: 1,
    position: 50,
    isRequired: false,
    isVisible: true,
    isEditable: true,
    ...over,
  });
  const groupAttr = (over: Partial<V1['GroupAttributeRequest']>): V1['GroupAttributeRequest'] => ({
    name: 'Attr',
    type: 1,
    position: 50,
    isRequired: false,
    isVisible: true,
    ...over,
  });

  it('scopes apiId uniqueness to its kind: a group attribute may share a user attribute apiId', async () => {
    const answer = await h.api.v1.POST('/custom/attributes/groups', {
      body: [groupAttr({ name: 'Department of group', apiId: 'department' })],
    });
    expect(answer.response.status).toBe(200);
    expect(ok(answer)[0]?.apiId).toBe('department');
    const users = ok(await h.api.v1.GET('/custom/attributes/users'));
    expect(users.some((a) => a.apiId === 'department')).toBe(true);
  });

  it('still refuses an apiId another attribute of the same kind has', async () => {
    const answer = await h.v1('/custom/attributes/users', {
      method: 'POST',
      json: [userAttr({ name: 'Other', apiId: 'department' })],
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors)).toEqual(['attributes[0].apiId']);
  });

  it('renames a user attribute apiId given with its id, and moves the stored values to it', async () => {
    const [made] = ok(
      await h.api.v1.POST('/custom/attributes/users', {
        body: [userAttr({ name: 'Badge', apiId: 'badge' })],
      }),
    );
    const madeId = defined(made, 'the new attribute').id;
    const { apiId } = await newLearner({ attributes: { badge: 'B-7' } });
    const renamed = await h.api.v1.POST('/custom/attributes/users', {
      body: [userAttr({ id: madeId, name: 'Badge', apiId: 'badgeNumber' })],
    });
    expect(renamed.response.status).toBe(200);
    expect(renamed.data?.[0]).toMatchObject({ id: madeId, apiId: 'badgeNumber' });
    expect(demo().userByApiId(apiId)?.attributes).toMatchObject({ badgeNumber: 'B-7' });
    expect(demo().userByApiId(apiId)?.attributes).not.toHaveProperty('badge');
  });

  it('moves group values to a renamed group attribute and drops values of removed options', async () => {
    const made = await h.api.v1.POST('/custom/attributes/groups', {
      body: [
        groupAttr({
          name: 'Tier',
          apiId: 'tier',
          type: 3,
          extraData: [{ value: 'gold' }, { value: 'silver' }],
        }),
        groupAttr({
          name: 'Perks',
          apiId: 'perks',
          type: 4,
          position: 51,
          extraData: [{ value: 'car' }, { value: 'phone' }],
        }),
      ],
    });
    expect(made.response.status).toBe(200);
    const group = ok(await h.api.v1.POST('/groups', { body: { name: 'Tiered' } }));
    const patched = await h.api.v1.PATCH('/groups/{groupId}', {
      params: { path: { groupId: group.id } },
      body: { name: 'Tiered', attributes: { Tier: 'gold', Perks: ['car', 'phone'], region: 'EMEA' } },
    });
    expect(patched.response.status).toBe(200);

    const changed = await h.api.v1.POST('/custom/attributes/groups', {
      body: [
        groupAttr({ name: 'Level', apiId: 'tier', type: 3, extraData: [{ value: 'silver' }] }),
        groupAttr({ name: 'Perks', apiId: 'perks', type: 4, position: 51, extraData: [{ value: 'phone' }] }),
      ],
    });
    expect(changed.response.status).toBe(200);
    const stored = demo().groups.get(group.id)?.attributes;
    expect(stored).toEqual({ Perks: ['phone'], region: 'EMEA' });

    const renamedOnly = await h.api.v1.POST('/custom/attributes/groups', {
      body: [
        groupAttr({
          name: 'Benefits',
          apiId: 'perks',
          type: 4,
          position: 51,
          extraData: [{ value: 'phone' }],
        }),
      ],
    });
    expect(renamedOnly.response.status).toBe(200);
    expect(demo().groups.get(group.id)?.attributes).toEqual({ Benefits: ['phone'], region: 'EMEA' });
  });

  it('refuses two group attributes of one name, as group values are keyed by name (x-assumed)', async () => {
    const answer = await h.v1('/custom/attributes/groups', {
      method: 'POST',
      json: [groupAttr({ name: 'region' })],
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors)).toEqual(['attributes[0].name']);
  });
});

describe('a user id that names no user is a missing user (seed 001, User ban state: user missing → 404; Users: 404)', () => {
  it.each(['no-such-user', 'a b', 'ümlaut', 'x'.repeat(255)])('bans %s: 404, nothing changes', async (id) => {
    const before = [...demo().users.values()].filter((u) => u.isBanned).length;
    const answer = await h.v1('/users/blocked', { method: 'POST', json: { id } });
    expect(answer).toMatchObject({ status: 404, body: { status: 404 } });
    expect([...demo().users.values()].filter((u) => u.isBanned).length).toBe(before);
  });

  it.each(['no-such-user', 'a.b'])('answers 404 for PATCH and assignments of %s', async (id) => {
    const patched = await h.v1(`/users/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      json: { email: 'x@example.test' },
    });
    expect(patched.status).toBe(404);
    expect((await h.v1(`/users/${encodeURIComponent(id)}/assignments`)).status).toBe(404);
  });

  it("refuses an id longer than the longest API ID (255 characters, the kit's bound) as invalid, 400 keyed id", async () => {
    const answer = await h.v1('/users/blocked', { method: 'POST', json: { id: 'x'.repeat(256) } });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors)).toEqual(['id']);
  });

  it('still refuses an empty id as invalid (400 keyed id)', async () => {
    const answer = await h.v1('/users/blocked', { method: 'POST', json: { id: '' } });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors)).toEqual(['id']);
  });
});

describe('MCP keys of any role (seed 000, MCP key: owner "the user who created it (an admin)"; Authentication 2: the key acts as its owner; x-assumed in the admin API)', () => {
  it('mints a key for a learner that acts with the learner permissions, and the contract marks the choice', async () => {
    const lena = demo().userByApiId('lena')?.id as number;
    const { key } = await h.newKey(lena, ['read', 'write']);
    const answer = await h.api.v2As(key).GET('/mcp/capabilities');
    expect(answer.response.status).toBe(200);
    const caps = ok(answer);
    expect(caps.user.id).toBe(lena);
    expect(caps.tools).toContain('list_my_assignments');
    expect(caps.tools).not.toContain('find_user');
    expect((await h.v2('/users?query=a', { key })).status).toBe(403);

    const spec = loadSpecs().admin as any;
    expect(spec.components.schemas.CreateMcpKeyRequest.properties.userId['x-assumed']).toBe(true);
  });
});

describe('unknown body fields are refused, by name, on every API (docs/adr-0002: bad input; the v1 contract closes its request bodies)', () => {
  it('v1 PATCH /users/{userId} with a typo: 400 keyed by the typo, nothing changes', async () => {
    const before = demo().userByApiId('lena')?.name;
    const answer = await h.v1('/users/lena', {
      method: 'PATCH',
      json: { email: 'lena@demo.example', nmae: 'x' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual({ nmae: ['nmae is not allowed'] });
    expect(demo().userByApiId('lena')?.name).toBe(before);
  });

  it('v1 POST /users with isAdmin: 400 keyed isAdmin, no user made', async () => {
    const before = demo().users.size;
    const answer = await h.v1('/users', {
      method: 'POST',
      json: {
        name: 'Eve',
        email: 'eve@example.test',
        password: 'correct horse',
        roleAlias: 'learner',
        isAdmin: true,
      },
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors)).toEqual(['isAdmin']);
    expect(demo().users.size).toBe(before);
  });

  it('v1 names every unknown field, nested ones by their path', async () => {
    const answer = await h.v1('/custom/attributes/groups', {
      method: 'POST',
      json: [
        {
          name: 'Zone',
          type: 3,
          position: 9,
          isRequired: false,
          isVisible: true,
          colour: 'red',
          extraData: [{ value: 'A', label: 'a' }],
        },
      ],
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors).sort()).toEqual([
      'attributes[0].colour',
      'attributes[0].extraData[0].label',
    ]);
  });

  it.each([
    ['v1', '/groups', { name: 'G', colour: 'red' }],
    ['v1', '/courses/1/assignments', { users: ['lena'], when: 1 }],
    ['v1', '/users/blocked', { id: 'lena', reason: 'x' }],
  ])('%s POST %s refuses the extra field', async (_api, path, json) => {
    const answer = await h.v1(path, { method: 'POST', json });
    expect(answer.status).toBe(400);
  });

  it('v2 names the field in its message', async () => {
    const answer = await h.v2('/courses/clone', { method: 'POST', json: { courseId: 1, nmae: 'x' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: expect.stringContaining('body.nmae'),
    });
  });

  it('the admin API names the field in its message', async () => {
    const answer = await h.admin('/clock/advance', { method: 'POST', json: { seconds: 1, minutes: 2 } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain('body.minutes');
  });
});

describe('a method a path does not have (RFC 9110: 405 with Allow; OPTIONS lists the path own methods)', () => {
  it.each([
    ['DELETE', '/openapi/v1/courses', 'GET, HEAD, OPTIONS', 'status'],
    ['PUT', '/openapi/v1/users/lena', 'PATCH, OPTIONS', 'status'],
    ['GET', '/api/v2/courses/clone', 'POST, OPTIONS', 'code'],
    ['DELETE', '/__admin/clock', 'GET, HEAD, OPTIONS', 'code'],
  ])('%s %s: 405, Allow %s, in the API error shape', async (method, path, allow, field) => {
    const response = await fetch(`${h.base}${path}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.json()).toHaveProperty(field);
  });

  it('OPTIONS answers the methods of the most specific path only', async () => {
    const clone = await fetch(`${h.base}/api/v2/courses/clone`, { method: 'OPTIONS' });
    expect(clone.status).toBe(204);
    expect(clone.headers.get('allow')).toBe('POST, OPTIONS');
    const course = await fetch(`${h.base}/api/v2/courses/7`, { method: 'OPTIONS' });
    expect(course.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('an unknown path is still a 404', async () => {
    const response = await fetch(`${h.base}/openapi/v1/nothing/here`, { method: 'DELETE' });
    expect(response.status).toBe(404);
  });
});

describe('GET / says what the mock serves (docs/mock.md: the index)', () => {
  it('answers JSON with the three APIs, their auth and the health link', async () => {
    const response = await fetch(`${h.base}/`);
    expect(response.status).toBe(200);
    const index = await response.json();
    expect(index.apis.map((a: any) => a.base)).toEqual(['/openapi/v1', '/api/v2', '/__admin']);
    expect(index.health).toBe('/__admin/health');
    expect((await fetch(`${h.base}${index.health}`)).status).toBe(200);
    // This harness serves no docs: no link to a page that would be a 404.
    expect(index.docs).toBeNull();
  });

  it('answers a browser with HTML of the same links', async () => {
    const response = await fetch(`${h.base}/`, { headers: { accept: 'text/html' } });
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('<a href="/__admin/health">');
  });
});

describe('the admin token needs its Bearer scheme (openapi/admin: Authorization: Bearer <admin token>)', () => {
  it.each([
    ['the bare token', 'test-admin-token'],
    ['another scheme', 'Basic test-admin-token'],
    ['Bearer without a token', 'Bearer '],
  ])('refuses %s with 401', async (_what, authorization) => {
    const response = await fetch(`${h.base}/__admin/clock`, { headers: { authorization } });
    expect(response.status).toBe(401);
    expect((await response.json()).error).toContain('Bearer');
  });

  it('accepts Bearer in any case, as RFC 6750 schemes are', async () => {
    const response = await fetch(`${h.base}/__admin/clock`, {
      headers: { authorization: 'bearer test-admin-token' },
    });
    expect(response.status).toBe(200);
  });
});

describe('webhook receivers name real events (seed 001, Events: user.created, group.user.created, course.finished, course.published)', () => {
  it('refuses a name the mock never sends, changing nothing', async () => {
    const before = demo().receivers.size;
    const answer = await h.admin('/tenants/demo/webhooks', {
      method: 'POST',
      json: { url: 'http://127.0.0.1:9/hook', secret: 's3cret-signing-key', events: ['user.added_to_group'] },
    });
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(answer.body.error).toContain('body.events.0: must be one of user.created, group.user.created');
    expect(demo().receivers.size).toBe(before);
  });

  it('accepts the four events of the seed', async () => {
    const events: AdminComponents['schemas']['WebhookEventName'][] = [
      'user.created',
      'group.user.created',
      'course.finished',
      'course.published',
    ];
    const demoTenant = { tenantId: 'demo' };
    const answer = await h.api.admin.POST('/tenants/{tenantId}/webhooks', {
      params: { path: demoTenant },
      body: { url: 'http://127.0.0.1:9/hook', secret: 's3cret-signing-key', events },
    });
    expect(answer.response.status).toBe(201);
    const receiver = ok(answer);
    expect(receiver.events).toEqual(events);
    await h.api.admin.DELETE('/tenants/{tenantId}/webhooks/{receiverId}', {
      params: { path: { ...demoTenant, receiverId: receiver.id } },
    });
  });
});

describe('the admin API takes a user by integer id or v1 API ID (docs/adr-0002: a user has an integer id and a string API id)', () => {
  it('mints a key for a user named by API ID, owned by the same user as by integer id', async () => {
    const maxId = defined(demo().userByApiId('max'), 'max').id;
    const mint = (userId: number | string) =>
      h.api.admin.POST('/tenants/{tenantId}/mcp-keys', {
        params: { path: { tenantId: 'demo' } },
        body: { userId, scopes: ['read'] },
      });
    const byApiId = await mint('max');
    expect(byApiId.response.status).toBe(201);
    expect(byApiId.data?.userId).toBe(maxId);
    const byId = await mint(maxId);
    expect(byId.data?.userId).toBe(maxId);
  });

  it('plays a learner named by API ID', async () => {
    const { apiId } = await newLearner({ courses: [8] });
    const answer = await h.api.admin.POST('/tenants/{tenantId}/users/{userId}/courses/{courseId}/progress', {
      params: { path: { tenantId: 'demo', userId: apiId, courseId: 8 } },
      body: { action: 'start' },
    });
    expect(answer.response.status).toBe(200);
    expect(answer.data?.userId).toBe(demo().userByApiId(apiId)?.id);
  });

  it('answers 404 for an API ID that names nobody, and 400 for one that is not alphanumeric', async () => {
    const before = demo().mcpKeys.size;
    const nobody = await h.admin('/tenants/demo/mcp-keys', {
      method: 'POST',
      json: { userId: 'nobody', scopes: ['read'] },
    });
    expect(nobody).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const odd = await h.admin('/tenants/demo/users/no-body/courses/8/progress', {
      method: 'POST',
      json: { action: 'start' },
    });
    expect(odd.status).toBe(400);
    expect(demo().mcpKeys.size).toBe(before);
  });
});

describe('PUT /__admin/snapshot checks the whole snapshot against the contract (openapi/admin StateSnapshot, StateTenant)', () => {
  const valid = () => h.platform.snapshot() as any;

  it.each([
    [
      'a tenant lacking its arrays',
      (s: any) => ({ ...s, tenants: { demo: { id: 'demo', name: 'Demo' } } }),
      'body.tenants.demo',
    ],
    [
      'a user without an apiId',
      (s: any) => {
        s.tenants.demo.users[0] = { id: 1, name: 'x', email: 'x@example.test' };
        return s;
      },
      'body.tenants.demo.users.0.apiId',
    ],
    ['a huge negative now', (s: any) => ({ ...s, now: -1e15 }), 'body.now'],
  ])('refuses %s with 400 naming the place, changing nothing', async (_what, damage, place) => {
    const before = JSON.stringify(h.platform.snapshot());
    const answer = await h.admin('/snapshot', { method: 'PUT', json: damage(valid()) });
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(answer.body.error).toContain(place);
    expect(answer.body.error).not.toMatch(/Cannot read properties|undefined/);
    expect(JSON.stringify(h.platform.snapshot())).toBe(before);
    const clock = ok(await h.api.admin.GET('/clock'));
    expect(clock.iso).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('loads the snapshot it exported', async () => {
    const answer = await h.admin('/snapshot', { method: 'PUT', json: valid() });
    expect(answer.status).toBe(200);
  });
});

describe('the contract states the audit window the server checks (seed 000, get_audit_log: ISO date or YYYY-MM-DD)', () => {
  const samples = [
    '2026-01-01',
    '2026-01-01T06:00:00Z',
    '2026-01-01T13:00:00+01:00',
    '2026-01-01T06:00:00.123Z',
    '2026-13-01',
    '2026-00-10',
    '2026-01-32',
    '2026-01-01T25:00',
    '2026-01-01T10:61',
    '2026-01-01T10:00+24:00',
  ];

  it.each(samples)('%s: the contract and the server agree', async (date) => {
    const pattern = new RegExp(
      (loadSpecs().v2 as any).components.parameters.AuditCreatedFrom.schema.pattern as string,
    );
    const answer = await h.v2(`/audit?fields[createdAt][from]=${encodeURIComponent(date)}`);
    expect(answer.status === 200, `${date}: ${JSON.stringify(answer.body)}`).toBe(pattern.test(date));
    if (answer.status !== 200) expect(answer.body.error).toContain('fields[createdAt][from]');
  });
});

describe('constraints the server keeps are stated in the contract (openapi/README.md: the contract is the truth)', () => {
  it('an empty upload: 400 VALIDATION_ERROR, as the upload schema says', async () => {
    const form = new FormData();
    form.append('file', new Blob([]), 'empty.pdf');
    const answer = await h.v2('/chat/source-materials/upload', { method: 'POST', body: form });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', error: 'The file is empty.' },
    });
    const spec = loadSpecs().v2 as any;
    expect(spec.components.schemas.UploadSourceMaterialRequest.properties.file.description).toContain(
      'The file is empty.',
    );
  });

  it('generation min over max: 400 naming both, as the AI settings operation says', async () => {
    const before = { ...demo().ai };
    const answer = await h.admin('/tenants/demo/ai', {
      method: 'PATCH',
      json: { generationMinSeconds: 50, generationMaxSeconds: 40 },
    });
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(answer.body.error).toBe('generationMinSeconds must not exceed generationMaxSeconds');
    expect(demo().ai).toEqual(before);
    const spec = loadSpecs().admin as any;
    expect(spec.paths['/tenants/{tenantId}/ai'].patch.description).toContain(answer.body.error);
  });
});

describe('e-mail format (seed 001, Users: 400 "invalid e-mail format"; the contract: email with a dotted domain)', () => {
  it.each(['0@com', 'anna@localhost', 'no-at-sign', 'a b@example.com'])(
    'refuses %s, keyed email',
    async (email) => {
      const answer = await h.v1('/users/lena', { method: 'PATCH', json: { email } });
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.errors)).toEqual(['email']);
    },
  );

  it.each(['first.last+tag@sub.example.co', 'x@example.museum'])('accepts %s', async (email) => {
    const { apiId } = await newLearner({ email });
    expect(demo().userByApiId(apiId)?.email).toBe(email);
  });
});

describe('search results come in the order the contract states (seed 000, find_user and find_course; openapi/v2 UserList, CourseList: by id)', () => {
  it('find_user: matches in creation order, the first page the first of them', async () => {
    const search = async (limit: number) =>
      ok(await h.api.v2.GET('/users', { params: { query: { query: 'l', limit } } }));
    const all = await search(50);
    const ids = all.users.map((u) => u.id);
    expect(ids.length).toBeGreaterThan(3);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const page = await search(2);
    expect(page.users).toEqual(all.users.slice(0, 2));
    expect(page.totalCount).toBe(all.totalCount);
    const spec = loadSpecs().v2 as any;
    expect(spec.components.schemas.UserList.properties.users.description).toContain('by `id`');
  });

  it('find_course: matches in creation order', async () => {
    const all = ok(await h.api.v2.GET('/courses', { params: { query: { query: 'e', limit: 50 } } }));
    const ids = all.courses.map((c) => c.id);
    expect(ids.length).toBeGreaterThan(3);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const spec = loadSpecs().v2 as any;
    expect(spec.components.schemas.CourseList.properties.courses.description).toContain('by `id`');
  });
});

describe('unknown fields named like Object members are named too (docs/adr-0002: bad input, never a 5xx)', () => {
  it.each(['constructor', '__proto__', 'toString'])(
    'PATCH /users/{userId} with %s: 400 keyed by it',
    async (field) => {
      const response = await fetch(`${h.base}/openapi/v1/users/lena`, {
        method: 'PATCH',
        headers: { 'x-api-key': 'demo_site_key_4f1c9a7e2b6d8053', 'content-type': 'application/json' },
        body: `{"email":"lena@demo.example","${field}":{"a":1}}`,
      });
      expect(response.status).toBe(400);
      expect(Object.keys(await response.json().then((b) => b.errors))).toEqual([field]);
    },
  );
});
