// What the contracts say about their inputs is what the mock does, so that a client generated from
// them, or a fuzzer reading them, agrees with the mock: the clock's bound, every status the admin API
// answers, the admin API's user references, the group PATCH's attributes, and rules the prose states
// written into the schemas (e-mail, role alias, ids, upload size, language, calendar days). Each test
// names the contract text or seed rule it holds the mock to; the harness checks every answer too.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLOCK_MAX } from '../../mock/domain/clock.ts';
import { loadSeed } from '../../mock/seed/index.ts';
import { loadSpecs } from '../../mock/specs.ts';
import { type Harness, startHarness } from './harness.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const specs = loadSpecs() as Record<'v1' | 'v2' | 'admin', any>;
const DEMO = loadSeed('demo');

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.platform.load(DEMO));

const demo = () => h.platform.tenant('demo');
/** The state, without the keys' `lastUsedAt` (a v2 request's successful authentication stamps it). */
const state = () => JSON.stringify(h.platform.snapshot(), (k, v) => (k === 'lastUsedAt' ? undefined : v));

describe('the clock stops at its maximum (openapi/admin ClockTime: 253402214399, 9999-12-30T23:59:59Z)', () => {
  it('advancing past the maximum from near it: 400 VALIDATION_ERROR naming how far it may go, nothing changed', async () => {
    const near = await h.admin('/clock/set', { method: 'POST', json: { now: CLOCK_MAX - 10 } });
    expect(near.body).toEqual({ now: CLOCK_MAX - 10, iso: '9999-12-30T23:59:49Z' });
    const before = state();
    const past = await h.admin('/clock/advance', { method: 'POST', json: { seconds: 11 } });
    expect(past).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(past.body.error).toContain('may advance by at most 10 seconds');
    expect(state()).toBe(before);
    const to = await h.admin('/clock/advance', { method: 'POST', json: { seconds: 10 } });
    expect(to).toMatchObject({ status: 200, body: { now: CLOCK_MAX, iso: '9999-12-30T23:59:59Z' } });
    expect((await h.admin('/clock/advance', { method: 'POST', json: { seconds: 1 } })).status).toBe(400);
    expect(h.platform.now()).toBe(CLOCK_MAX);
  });

  it('setting it past the maximum: 400, the clock stays', async () => {
    const before = h.platform.now();
    const past = await h.admin('/clock/set', { method: 'POST', json: { now: CLOCK_MAX + 1 } });
    expect(past).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(past.body.error).toContain('body.now');
    expect(h.platform.now()).toBe(before);
  });

  it('a snapshot exported at the maximum imports back; one later than it is refused', async () => {
    await h.admin('/clock/set', { method: 'POST', json: { now: CLOCK_MAX } });
    const exported = await h.admin('/snapshot');
    expect(exported.status).toBe(200);
    expect(exported.body.now).toBe(CLOCK_MAX);
    await h.admin('/reset', { method: 'POST', json: {} });
    const imported = await h.admin('/snapshot', { method: 'PUT', json: exported.body });
    expect(imported.status).toBe(200);
    expect(h.platform.now()).toBe(CLOCK_MAX);

    const before = state();
    const later = await h.admin('/snapshot', {
      method: 'PUT',
      json: { ...exported.body, now: CLOCK_MAX + 1 },
    });
    expect(later).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(state()).toBe(before);
  });

  it('fixtures that start the clock past the maximum: 400 naming now, nothing changed', async () => {
    const before = state();
    const fixture = {
      now: '9999-12-31T00:00:00Z',
      tenants: [
        { id: 'late', users: [{ id: 'ann', name: 'Ann', email: 'ann@late.example', role: 'admin' }] },
      ],
    };
    const refused = await h.admin('/fixtures', { method: 'POST', json: fixture });
    expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(refused.body.error).toContain("now: 9999-12-31T00:00:00Z is after the clock's maximum");
    expect(state()).toBe(before);
    const atMax = await h.admin('/fixtures', {
      method: 'POST',
      json: { ...fixture, now: '9999-12-30T23:59:59Z' },
    });
    expect(atMax.status).toBe(200);
    expect(h.platform.now()).toBe(CLOCK_MAX);
  });

  it('a generation job created at the maximum is due at it, so it completes (seed 000, Generation job: queued → completed)', async () => {
    await h.admin('/clock/set', { method: 'POST', json: { now: CLOCK_MAX } });
    const queued = await h.v2('/ai/courses/generate', { method: 'POST', json: { prompt: 'Fire safety' } });
    expect(queued.status).toBe(202);
    const jobs = await h.admin('/tenants/demo/ai/jobs');
    const job = jobs.body.jobs.find((j: any) => j.id === queued.body.jobId);
    expect(job.completesAt).toBe(CLOCK_MAX);
    const status = await h.v2(`/ai/courses/generate/${queued.body.jobId}`);
    expect(status.body.status).toBe('completed');
  });
});

describe('every status the admin API answers is documented (openapi/README.md: every status the mock can answer is documented)', () => {
  it('GET /__admin/journal/{requestId} with an id that is not req_ and digits: 400 VALIDATION_ERROR, documented', async () => {
    const answer = await h.admin('/journal/not-an-id');
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    const operation = specs.admin.paths['/journal/{requestId}'].get;
    expect(operation.responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(specs.admin.components.responses.BadRequest['x-error-codes']).toContain('VALIDATION_ERROR');
    expect((await h.admin('/journal/req_999999999')).status).toBe(404);
  });
});

describe('the admin API names a v1 API ID of digits only with api: (openapi/admin UserRef, x-assumed)', () => {
  /** A v1 user whose API ID is `5`, while the demo's integer id 5 is another user. */
  async function digitsUser() {
    const made = await h.v1('/users', {
      method: 'POST',
      json: {
        id: '5',
        name: 'Five',
        email: 'five@example.com',
        password: 'correct horse',
        roleAlias: 'learner',
        courses: [8],
      },
    });
    expect(made.status).toBe(201);
    const five = demo().userByApiId('5');
    expect(five?.id).not.toBe(5);
    return five?.id as number;
  }

  it('the contract states both forms: digits are the integer id, api: an API ID', () => {
    const ref = specs.admin.components.schemas.UserRef;
    expect(ref['x-assumed']).toBe(true);
    expect(ref.description).toContain('`api:123`');
    expect(new RegExp(ref.pattern).test('api:123')).toBe(true);
    expect(new RegExp(ref.pattern).test('api:')).toBe(false);
  });

  it('GET /tenants/demo/users/5 is the integer id 5, /users/api:5 the user whose API ID is 5', async () => {
    const id = await digitsUser();
    const byInteger = await h.admin('/tenants/demo/users/5');
    expect(byInteger.body.user.id).toBe(5);
    expect(byInteger.body.user.apiId).not.toBe('5');
    const byApiId = await h.admin('/tenants/demo/users/api:5');
    expect(byApiId.status).toBe(200);
    expect(byApiId.body.user).toMatchObject({ id, apiId: '5' });
    expect((await h.admin('/tenants/demo/users/api:lena')).body.user.apiId).toBe('lena');
  });

  it('plays, mints a key for and filters by the user named api:5', async () => {
    const id = await digitsUser();
    const played = await h.admin('/tenants/demo/users/api:5/courses/8/progress', {
      method: 'POST',
      json: { action: 'start' },
    });
    expect(played.status).toBe(200);
    expect(played.body.userId).toBe(id);
    const key = await h.admin('/tenants/demo/mcp-keys', {
      method: 'POST',
      json: { userId: 'api:5', scopes: ['read'] },
    });
    expect(key.status).toBe(201);
    expect(key.body.userId).toBe(id);
    const listed = await h.admin('/tenants/demo/assignments?userId=api:5');
    expect(listed.body.assignments.map((a: any) => a.userId)).toEqual([id]);
  });

  it('api: with no API ID, or one that is not alphanumeric, is a 400; one that names nobody a 404', async () => {
    expect((await h.admin('/tenants/demo/users/api:')).status).toBe(400);
    expect((await h.admin('/tenants/demo/users/api:no-body')).status).toBe(400);
    expect(await h.admin('/tenants/demo/users/api:nobody')).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
  });
});

describe('PATCH /groups/{groupId} replaces the attributes (x-assumed, as seed 001 Endpoints > Users says of PATCH /users: "the complete set, overwriting current values")', () => {
  it('the contract says so, as it does for updateUser', () => {
    const attributes = specs.v1.components.schemas.UpdateGroupRequest.properties.attributes;
    expect(attributes['x-assumed']).toBe(true);
    expect(attributes.description).toContain('complete set');
    expect(specs.v1.paths['/groups/{groupId}'].patch.description).toContain('complete set');
  });

  it('an attribute left out loses its value; a PATCH without attributes keeps them', async () => {
    expect(demo().groups.get(1)?.attributes).toEqual({ region: 'EMEA', 'cost centre': 'CC-100' });
    const replaced = await h.v1('/groups/1', {
      method: 'PATCH',
      json: { name: 'Company', attributes: { region: 'APAC' } },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.attributes).toEqual({ region: 'APAC' });
    const kept = await h.v1('/groups/1', { method: 'PATCH', json: { name: 'Company' } });
    expect(kept.body.attributes).toEqual({ region: 'APAC' });
  });
});

describe('ids, offsets and limits are exact: int32, refused beyond it with 400 naming the parameter, never a rounded number', () => {
  it.each([
    ['v1 a course id past 2^53', () => h.v1('/courses/9007199254740993'), 'courseId'],
    ['v1 a course id of 23 digits', () => h.v1('/courses/99999999999999999999999'), 'courseId'],
    ['v2 an audit offset of 20 digits', () => h.v2('/audit?offset=99999999999999999999'), 'offset'],
    ['v2 a user id past int32', () => h.v2('/users/2147483648'), 'userId'],
    ['admin a page offset past int32', () => h.admin('/tenants/demo/users?offset=2147483648'), 'offset'],
  ])('%s', async (_, send, parameter) => {
    const answer = await send();
    expect(answer.status).toBe(400);
    const text = JSON.stringify(answer.body);
    expect(text).toContain(parameter);
    expect(text).not.toMatch(/9007199254740992|1e\+2\d|100000000000000000000/);
  });
});

describe('the e-mail rule is a pattern in the contracts (seed 001, Users: 400 "invalid e-mail format"; EmailAddress)', () => {
  const rule = specs.v1.components.schemas.EmailAddress;
  const pattern = new RegExp(rule.pattern, 'u');

  it('every e-mail property of the three contracts is an EmailAddress (but the snapshot, whose inner shape is the mock own)', () => {
    const found: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object' || at.endsWith('/StateTenant')) return;
      const n = node as Record<string, any>;
      if (n.properties?.email) {
        found.push(at);
        expect(n.properties.email.$ref, at).toBe('#/components/schemas/EmailAddress');
      }
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    for (const api of ['v1', 'v2', 'admin'] as const) {
      walk(specs[api], api);
      expect(specs[api].components.schemas.EmailAddress, api).toEqual(rule);
    }
    expect(found.length).toBeGreaterThanOrEqual(15);
  });

  it.each([
    'anna@example.com',
    'First.Last+tag@Sub.Example.CO',
    "o'brien@example.ie",
    'x@a-b.example',
    'anna@localhost',
    '0@com',
    'a b@example.com',
    'anna@-example.com',
    'anna@example-.com',
    'anna..b@example.com',
    '.anna@example.com',
    'anna@exa_mple.com',
    'ann\u00e9@example.com',
  ])('%s: the pattern and the email format the mock validates with agree', (email) => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const byFormat = ajv.compile({ type: 'string', format: 'email' })(email);
    expect(pattern.test(email)).toBe(byFormat);
  });

  it('one length for every API: an address v1 takes (254 characters) is one v2 searches and changes to; 255 is refused by both', async () => {
    expect(rule.maxLength).toBe(254);
    const longest = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(53)}.example`;
    expect(longest).toHaveLength(254);
    expect(pattern.test(longest)).toBe(true);
    const created = await h.v1('/users', {
      method: 'POST',
      json: { name: 'Longest', email: longest, password: 'correct horse', roleAlias: 'learner' },
    });
    expect(created.status).toBe(201);
    const found = await h.v2(`/users?query=${encodeURIComponent(longest)}`);
    expect(found.status).toBe(200);
    expect(found.body.users.map((u: { email: string }) => u.email)).toContain(longest);
    const tooLong = `x${longest}`;
    const v1 = await h.v1('/users', {
      method: 'POST',
      json: { name: 'Too long', email: tooLong, password: 'correct horse', roleAlias: 'learner' },
    });
    expect(v1.status).toBe(400);
    const v2 = await h.v2('/users/7/email/change', { method: 'POST', json: { email: tooLong } });
    expect(v2).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it('a validator that reads the pattern alone refuses what the mock refuses: v2 change_user_email and admin createTenant', async () => {
    expect(pattern.test('lena@localhost')).toBe(false);
    expect(pattern.test('0@com')).toBe(false);
    const v2 = await h.v2('/users/7/email/change', { method: 'POST', json: { email: 'lena@localhost' } });
    expect(v2).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    const admin = await h.admin('/tenants', {
      method: 'POST',
      json: { id: 'dotless', admin: { name: 'Dot', email: '0@com' } },
    });
    expect(admin).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(h.platform.tenants.has('dotless')).toBe(false);
  });
});

describe('rules the prose states are in the v1 schemas (seed 001, Errors: 400 validation failed)', () => {
  const schemas = specs.v1.components.schemas;

  it('roleAlias is at least one character (minLength 1): an empty one is refused by the contract', async () => {
    expect(schemas.CreateUserRequest.properties.roleAlias.minLength).toBe(1);
    expect(schemas.UpdateUserRequest.properties.roleAlias.minLength).toBe(1);
    const answer = await h.v1('/users/lena', {
      method: 'PATCH',
      json: { email: 'lena@demo.example', roleAlias: '' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual({ roleAlias: ['roleAlias must NOT have fewer than 1 characters'] });
  });

  it('ids in id arrays and parentId are at least 1 (minimum 1): 0 and negatives are refused by the contract, changing nothing', async () => {
    expect(schemas.CreateUserRequest.properties.courses.items.minimum).toBe(1);
    expect(schemas.CreateUserRequest.properties.groups.items.minimum).toBe(1);
    expect(schemas.AssignCourseRequest.properties.groups.items.minimum).toBe(1);
    expect(schemas.CreateGroupRequest.properties.parentId.minimum).toBe(1);
    expect(schemas.UpdateGroupRequest.properties.parentId.minimum).toBe(1);
    const before = state();
    const user = {
      name: 'Zero',
      email: 'zero@example.com',
      password: 'correct horse',
      roleAlias: 'learner',
    };
    const courses = await h.v1('/users', { method: 'POST', json: { ...user, courses: [0] } });
    expect(courses.body.errors).toEqual({ 'courses[0]': ['courses[0] must be >= 1'] });
    const groups = await h.v1('/users', { method: 'POST', json: { ...user, groups: [-1] } });
    expect(groups.body.errors).toEqual({ 'groups[0]': ['groups[0] must be >= 1'] });
    const assigned = await h.v1('/courses/3/assignments', { method: 'POST', json: { groups: [0] } });
    expect(assigned.status).toBe(400);
    const created = await h.v1('/groups', { method: 'POST', json: { name: 'Orphan', parentId: 0 } });
    expect(created.body.errors).toEqual({ parentId: ['parentId must be >= 1'] });
    const moved = await h.v1('/groups/4', { method: 'PATCH', json: { name: 'Backend', parentId: -3 } });
    expect(moved.body.errors).toEqual({ parentId: ['parentId must be >= 1'] });
    expect(state()).toBe(before);
  });
});

describe('rules the prose states are in the v2 contract (seed 000)', () => {
  it('an empty upload: the operation states 1 byte (x-min-file-size) and answers 0 bytes with the documented 400', async () => {
    const operation = specs.v2.paths['/chat/source-materials/upload'].post;
    expect(operation['x-min-file-size']).toBe(1);
    expect(specs.v2.components.schemas.UploadSourceMaterialRequest.properties.file['x-min-file-size']).toBe(
      1,
    );
    expect(operation.description).toContain(
      'an empty\nfile (0 bytes) is a 400 `VALIDATION_ERROR` "The file is empty."',
    );
    const form = new FormData();
    form.append('file', new Blob([]), 'empty.pdf');
    const answer = await h.v2('/chat/source-materials/upload', { method: 'POST', body: form });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', error: 'The file is empty.' },
    });
  });

  it('a language is an ISO 639-1 code (create_course_from_prompt: "<language> string optional, ISO 639-1"): zz is refused, de taken', async () => {
    const codes = specs.v2.components.schemas.LanguageCode.enum as string[];
    expect(codes).toHaveLength(184);
    expect(codes).not.toContain('zz');
    const before = state();
    const zz = await h.v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'Fire safety', options: { language: 'zz' } },
    });
    expect(zz).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(zz.body.error).toContain(
      'body.options.language: must be one of the 184 values the contract lists',
    );
    expect(state()).toBe(before);
    const de = await h.v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'Fire safety', options: { language: 'de' } },
    });
    expect(de.status).toBe(202);
  });

  it('every language of v2 is a LanguageCode, and the seven of v1 are ISO 639-1 codes (seed 001, User: language)', () => {
    const v2 = specs.v2.components.schemas;
    const ref = { $ref: '#/components/schemas/LanguageCode' };
    expect(v2.GenerationOptions.properties.language).toMatchObject(ref);
    expect(v2.CourseDetail.allOf[1].properties.language).toMatchObject(ref);
    expect(v2.UserDetail.allOf[1].properties.language.oneOf[0]).toEqual(ref);
    for (const code of specs.v1.components.schemas.Language.enum)
      expect(v2.LanguageCode.enum).toContain(code);
  });

  it.each(['2026-02-30', '2026-02-29T10:00:00Z', '2026-04-31'])(
    'the audit window %s is no day of the calendar: the documented 400, as the parameter says',
    async (day) => {
      for (const side of ['from', 'to']) {
        const answer = await h.v2(`/audit?fields[createdAt][${side}]=${encodeURIComponent(day)}`);
        expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
        expect(answer.body.error).toContain('a day the calendar has');
      }
      for (const name of ['AuditCreatedFrom', 'AuditCreatedTo'])
        expect(specs.v2.components.parameters[name].description).toContain(
          '`2026-02-30` through, which is refused with 400',
        );
      expect((await h.v2('/audit?fields[createdAt][from]=2024-02-29')).status).toBe(200);
    },
  );
});
