// In-process HTTP tests of the v1 API, one per rule of seed 001. Every answer is
// also checked against openapi/v1 by the harness: a handler that drifts from the contract fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/v1.ts';
import { defined, type Harness, ok, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const newUser = (n: string, extra: Partial<components['schemas']['CreateUserRequest']> = {}) => ({
  name: `New ${n}`,
  email: `${n}@example.test`,
  password: 'correct horse',
  roleAlias: 'learner',
  ...extra,
});
const demo = () => h.platform.tenant('demo');

describe('authentication (seed 001, Authentication; docs/adr-0002: 401 {status, message})', () => {
  it.each([
    ['no key', {}],
    ['a wrong key', { 'x-api-key': 'not-the-key' }],
  ])('answers 401 with %s', async (_what, headers) => {
    const response = await fetch(`${h.base}/openapi/v1/courses`, { headers });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status: 401, message: expect.any(String) });
  });
});

describe('users (seed 001, Users)', () => {
  it('creates a user that later reads return, with a generated API id when none is given', async () => {
    const created = await h.api.v1.POST('/users', { body: newUser('ivy') });
    expect(created.response.status).toBe(201);
    const user = ok(created);
    expect(user).toMatchObject({
      name: 'New ivy',
      email: 'ivy@example.test',
      isBanned: false,
      role: { alias: 'learner' },
      fromApi: true,
    });
    expect(user.id).toMatch(/^[A-Za-z0-9]+$/);
    const assignments = await h.api.v1.GET('/users/{userId}/assignments', {
      params: { path: { userId: user.id } },
    });
    expect(assignments.response.status).toBe(200);
    expect(assignments.data).toMatchObject({ assignments: [] });
  });

  it('refuses a taken e-mail, case-insensitively, with errors.email', async () => {
    const response = await h.v1('/users', {
      method: 'POST',
      json: newUser('dup', { email: 'ADA@demo.example' }),
    });
    expect(response.status).toBe(400);
    expect(response.body.errors.email).toEqual([expect.stringMatching(/taken/)]);
  });

  it('refuses a password shorter than 8 characters, with errors.password', async () => {
    const response = await h.v1('/users', {
      method: 'POST',
      json: newUser('short', { password: 'seven77' }),
    });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.errors)).toEqual(['password']);
  });

  it('refuses an unknown roleAlias', async () => {
    const response = await h.v1('/users', { method: 'POST', json: newUser('role', { roleAlias: 'wizard' }) });
    expect(response.status).toBe(400);
    expect(response.body.errors.roleAlias).toBeDefined();
  });

  it('assigns `courses` with `deadlineAt` and adds `groups` memberships on create', async () => {
    const deadline = h.platform.now() + 86_400;
    const created = await h.api.v1.POST('/users', {
      body: newUser('kit', { courses: [5, 6], deadlineAt: deadline, groups: [2] }),
    });
    expect(created.response.status).toBe(201);
    const user = ok(created);
    const body = ok(
      await h.api.v1.GET('/users/{userId}/assignments', { params: { path: { userId: user.id } } }),
    );
    const byCourse = Object.fromEntries(body.assignments.map((a) => [a.course.id, a]));
    expect(byCourse[5]).toMatchObject({ deadlineAt: deadline, isCourseStarted: false });
    expect(byCourse[6]).toMatchObject({ deadlineAt: deadline });
    // Group 2 (Sales) has course 7 assigned: a new member receives it too.
    expect(byCourse[7]).toBeDefined();
    const stats = ok(
      await h.api.v1.GET('/groups/{groupId}/statistics', { params: { path: { groupId: 2 } } }),
    );
    expect(stats.usersWithoutActivity.map((u) => u.id)).toContain(user.id);
  });

  it('PATCH answers 200 with no body and replaces the complete attribute set', async () => {
    const created = ok(
      await h.api.v1.POST('/users', {
        body: newUser('pat', { attributes: { department: 'Sales', remote: true } }),
      }),
    );
    const patched = await h.api.v1.PATCH('/users/{userId}', {
      params: { path: { userId: created.id } },
      body: { email: 'pat2@example.test', occupation: 'Lead', attributes: { experience_years: 4 } },
    });
    expect(patched.response.status).toBe(200);
    expect(patched.data).toBeUndefined();
    const user = demo().userByApiId(created.id);
    expect(user).toMatchObject({
      email: 'pat2@example.test',
      occupation: 'Lead',
      attributes: { experience_years: 4 },
    });
  });

  it('PATCH of an unknown user answers 404; an invalid e-mail 400', async () => {
    expect((await h.v1('/users/nobody', { method: 'PATCH', json: { email: 'x@example.test' } })).status).toBe(
      404,
    );
    const invalid = await h.v1('/users/ada', { method: 'PATCH', json: { email: 'not-an-email' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.email).toBeDefined();
  });

  it('refuses attribute values that break their definition (seed 001, Type rules)', async () => {
    const response = await h.v1('/users', {
      method: 'POST',
      json: newUser('attrs', {
        attributes: {
          employee_number: 'x'.repeat(256),
          hire_date: 'yesterday',
          remote: 'yes',
          experience_years: 'ten',
        },
      }),
    });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.errors).sort()).toEqual([
      'attributes.employee_number',
      'attributes.experience_years',
      'attributes.hire_date',
      'attributes.remote',
    ]);
  });
});

describe('ban (seed 001, User ban state)', () => {
  it('bans a user: isBanned true in the answer and in state', async () => {
    const response = await h.api.v1.POST('/users/blocked', { body: { id: 'lars' } });
    expect(response.response.status).toBe(200);
    expect(response.data).toMatchObject({ id: 'lars', isBanned: true });
    expect(demo().userByApiId('lars')?.isBanned).toBe(true);
  });

  it('answers 404 for a missing user', async () => {
    const response = await h.v1('/users/blocked', { method: 'POST', json: { id: 'ghost' } });
    expect(response.status).toBe(404);
  });

  it('answers 422 with data.courses for a user who is expert on courses, and leaves them active', async () => {
    const response = await h.v1('/users/blocked', { method: 'POST', json: { id: 'otto' } });
    expect(response.status).toBe(422);
    expect(response.body.data.courses).toEqual([
      { id: 1, name: 'Workplace safety', expertHomeworks: 3, expertClassworks: 1 },
      { id: 2, name: 'Data protection basics', expertHomeworks: 0, expertClassworks: 2 },
    ]);
    expect(demo().userByApiId('otto')?.isBanned).toBe(false);
  });
});

describe('custom attributes (seed 001, Custom attributes)', () => {
  it('lists the definitions (assumed GET) in the POST shape', async () => {
    const users = await h.api.v1.GET('/custom/attributes/users');
    expect(users.response.status).toBe(200);
    const types = ok(users).map((a) => a.type);
    expect(types.sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const groups = ok(await h.api.v1.GET('/custom/attributes/groups'));
    expect(groups.every((a) => !('isEditable' in a))).toBe(true);
  });

  it('upserts group attributes by apiId: same apiId updates, options editable, ids kept', async () => {
    const before = defined(
      ok(await h.api.v1.GET('/custom/attributes/groups')).find((a) => a.apiId === 'region'),
      'the region attribute',
    );
    const response = await h.api.v1.POST('/custom/attributes/groups', {
      body: [
        {
          name: 'Region',
          type: 3,
          apiId: 'region',
          position: 1,
          isRequired: false,
          isVisible: true,
          extraData: [{ value: 'EMEA' }, { value: 'LATAM' }],
        },
      ],
    });
    expect(response.response.status).toBe(200);
    const after = defined(ok(response)[0], 'the upserted attribute');
    expect(after.id).toBe(before.id);
    expect(after.name).toBe('Region');
    expect(after.extraData?.map((o) => o.value)).toEqual(['EMEA', 'LATAM']);
    expect(after.extraData?.[0]?.id).toBe(before.extraData?.[0]?.id);
  });

  it('upserts user attributes by id and refuses a type change, keyed attributes[0].type', async () => {
    const hire = defined(
      ok(await h.api.v1.GET('/custom/attributes/users')).find((a) => a.apiId === 'hire_date'),
      'the hire_date attribute',
    );
    const changed = await h.v1('/custom/attributes/users', {
      method: 'POST',
      json: [
        {
          id: hire.id,
          name: 'Hire date',
          type: 1,
          position: 2,
          isRequired: false,
          isVisible: true,
          isEditable: false,
        },
      ],
    });
    expect(changed.status).toBe(400);
    expect(changed.body.errors['attributes[0].type']).toBeDefined();
    const renamed = await h.api.v1.POST('/custom/attributes/users', {
      body: [
        {
          id: hire.id,
          name: 'Start date',
          type: 2,
          position: 2,
          isRequired: false,
          isVisible: true,
          isEditable: true,
        },
      ],
    });
    expect(ok(renamed)[0]).toMatchObject({
      id: hire.id,
      name: 'Start date',
      isEditable: true,
      extraData: null,
    });
  });

  it("answers the seed's messages: name is required, invalid attribute type, options required for choice type attributes", async () => {
    const response = await h.v1('/custom/attributes/groups', {
      method: 'POST',
      json: [
        { type: 1, position: 1, isRequired: false, isVisible: true },
        { name: 'Bad', type: 9, position: 1, isRequired: false, isVisible: true },
        { name: 'Choice', type: 3, position: 1, isRequired: false, isVisible: true },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toMatchObject({
      'attributes[0].name': ['name is required'],
      'attributes[1].type': ['invalid attribute type'],
      'attributes[2].extraData': ['options required for choice type attributes'],
    });
  });
});

describe('groups (seed 001, Groups)', () => {
  it('creates a group with usersCount 0, coursesCount 0, image null', async () => {
    const response = await h.api.v1.POST('/groups', {
      body: { name: 'Support', parentId: 1, description: 'Support desk' },
    });
    expect(response.response.status).toBe(201);
    expect(response.data).toMatchObject({
      name: 'Support',
      parentId: 1,
      usersCount: 0,
      coursesCount: 0,
      image: null,
    });
  });

  it('detaches a group with parentId null', async () => {
    const group4 = { params: { path: { groupId: 4 } } };
    const response = await h.api.v1.PATCH('/groups/{groupId}', {
      ...group4,
      body: { name: 'Backend', parentId: null },
    });
    expect(response.response.status).toBe(200);
    expect(response.data).toMatchObject({ id: 4, parentId: null });
    await h.api.v1.PATCH('/groups/{groupId}', { ...group4, body: { name: 'Backend', parentId: 3 } });
  });

  it('refuses a parent that would make a cycle, with errors.parentId', async () => {
    // Company (1) is the parent of Engineering (3): Company may not become Engineering's child.
    const response = await h.v1('/groups/1', { method: 'PATCH', json: { name: 'Company', parentId: 3 } });
    expect(response.status).toBe(400);
    expect(response.body.errors.parentId).toBeDefined();
    expect(demo().groups.get(1)?.parentId).toBeNull();
  });

  it('validates group attributes keyed by name (errors like attributes.region)', async () => {
    const response = await h.v1('/groups/2', {
      method: 'PATCH',
      json: { name: 'Sales', attributes: { region: 'Moon' } },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors['attributes.region']).toBeDefined();
  });

  it('answers 404 for a missing group, on PATCH and on statistics', async () => {
    expect((await h.v1('/groups/9999', { method: 'PATCH', json: { name: 'X' } })).status).toBe(404);
    expect((await h.v1('/groups/9999/statistics')).status).toBe(404);
  });

  it('computes group statistics from state: members without activity, without results, leaders', async () => {
    const answer = await h.api.v1.GET('/groups/{groupId}/statistics', { params: { path: { groupId: 2 } } });
    expect(answer.response.status).toBe(200);
    const body = ok(answer);
    expect(body.group).toMatchObject({ id: 2, name: 'Sales' });
    expect(body.leaders[0]?.user.id).toBe('lena');
    expect(body.usersWithoutResults.map((u) => u.id)).not.toContain('lena');
  });
});

describe('courses (seed 001, Courses and assignments; Limits: 20 per page)', () => {
  it('pages courses 20 at a time by offset, with totalCount', async () => {
    const page = async (offset?: number) =>
      ok(await h.api.v1.GET('/courses', offset === undefined ? {} : { params: { query: { offset } } }));
    const first = await page();
    const second = await page(20);
    const last = await page(40);
    expect(first.courses).toHaveLength(20);
    expect(second.courses).toHaveLength(20);
    expect(first.totalCount).toBe(48);
    expect(last.courses).toHaveLength(8);
    expect(second.courses[0]?.id).toBe(defined(first.courses[19], 'a 20th course').id + 1);
    expect((await page(1000)).courses).toEqual([]);
  });

  it('answers course detail with description and attachedFiles, and 404 for a missing course', async () => {
    const detail = await h.api.v1.GET('/courses/{courseId}', { params: { path: { courseId: 1 } } });
    expect(detail.data).toMatchObject({
      id: 1,
      description: expect.any(String),
      attachedFiles: expect.any(Array),
    });
    expect((await h.v1('/courses/9999')).status).toBe(404);
  });

  it('assigns users and groups and lists those successfully assigned; unknown ones are left out', async () => {
    const course30 = { params: { path: { courseId: 30 } } };
    const response = await h.api.v1.POST('/courses/{courseId}/assignments', {
      ...course30,
      body: { users: ['lena', 'ghost'], groups: [4, 999], deadlineAt: h.platform.now() + 3600 },
    });
    expect(response.response.status).toBe(200);
    const assigned = ok(response);
    expect(assigned.users.map((u) => u.id)).toEqual(['lena']);
    expect(assigned.groups.map((g) => g.id)).toEqual([4]);
    const list = ok(await h.api.v1.GET('/courses/{courseId}/assignments/users', course30));
    expect(list.assignments.map((a) => a.user.id).sort()).toEqual(['lena', 'lily', 'luca']);
    expect(list.totalCount).toBe(3);
  });

  it('leaves a banned member out of a group assignment, in v1 and in v2 (x-assumed, as a banned user in `users` is left out)', async () => {
    const group = ok(await h.api.v1.POST('/groups', { body: { name: 'Banned member group' } }));
    const member = newUser('bannedmember', { groups: [group.id] });
    ok(await h.api.v1.POST('/users', { body: member }));
    ok(await h.api.v1.POST('/users', { body: newUser('activemember', { groups: [group.id] }) }));
    ok(
      await h.api.v1.POST('/users/blocked', {
        body: { id: defined(demo().userByEmail(member.email), 'the new member').apiId },
      }),
    );
    const v1 = ok(
      await h.api.v1.POST('/courses/{courseId}/assignments', {
        params: { path: { courseId: 31 } },
        body: { users: [], groups: [group.id] },
      }),
    );
    expect(v1.groups.map((g) => g.id)).toEqual([group.id]);
    const list = ok(
      await h.api.v1.GET('/courses/{courseId}/assignments/users', { params: { path: { courseId: 31 } } }),
    );
    expect(list.assignments.map((a) => a.user.email)).toContain('activemember@example.test');
    expect(list.assignments.map((a) => a.user.email)).not.toContain(member.email);
    const v2 = await h.v2('/courses/32/assignments', { method: 'POST', json: { groups: [group.id] } });
    expect(v2.body).toMatchObject({ usersAssigned: 1, bannedSkipped: 1 });
  });

  it('answers 404 for assignments of a missing course or user', async () => {
    expect(
      (await h.v1('/courses/9999/assignments', { method: 'POST', json: { users: ['lena'] } })).status,
    ).toBe(404);
    expect((await h.v1('/courses/9999/assignments/users')).status).toBe(404);
    expect((await h.v1('/users/ghost/assignments')).status).toBe(404);
  });

  it('derives isCourseStarted/Finished/Expired from the record and the virtual clock', async () => {
    const body = ok(
      await h.api.v1.GET('/users/{userId}/assignments', { params: { path: { userId: 'liam' } } }),
    );
    const byCourse = Object.fromEntries(body.assignments.map((a) => [a.course.id, a]));
    expect(byCourse[1]).toMatchObject({
      isCourseStarted: true,
      isCourseFinished: true,
      isExpired: false,
      resultValue: 75,
    });
    // Course 3 was due three days before the seed's "now" and is not finished: expired.
    expect(byCourse[3]).toMatchObject({ isCourseFinished: false, isExpired: true });
  });
});

describe('statistics (seed 001, Statistics)', () => {
  it('computes the platform statistics from state, and follows writes', async () => {
    const before = ok(await h.api.v1.GET('/statistics'));
    expect(before.statistics.coursesCount).toBe(48);
    expect(before.statistics.usersCount).toBe(demo().users.size);
    await h.api.v1.POST('/users', { body: newUser('stat') });
    const after = ok(await h.api.v1.GET('/statistics'));
    expect(after.statistics.usersCount).toBe(before.statistics.usersCount + 1);
    expect(after.usersWithoutActivity.length).toBeGreaterThan(0);
    expect(after.leaders[0]).toMatchObject({ user: { id: 'lena' }, coursesCount: 2 });
    expect(after.unassignedCourses.every((c) => demo().assignmentsOfCourse(c.id).length === 0)).toBe(true);
  });
});

describe('statistics at size (openapi/v1 Statistics: the lists are capped, an assumed choice)', () => {
  it('x-assumed: /statistics capping its lists — usersWithoutActivity, usersWithoutResults and unassignedCourses hold the 100 made first, leaders the top 10 of the ranking; the counters count everything and the answer says nothing of the cut', async () => {
    // 150 users and 120 courses: twelve users finish course 1 (u2 a second one, so it ranks first),
    // the other 138 users never start, and courses 2 to 120 are assigned to nobody.
    const id = (n: number) => `u${n}`;
    const users = Array.from({ length: 150 }, (_, i) => ({
      id: id(i + 1),
      name: `User ${i + 1}`,
      email: `u${i + 1}@big.example`,
      role: i === 0 ? 'admin' : 'learner',
    }));
    const finishers = Array.from({ length: 12 }, (_, i) => i + 1);
    const fixture = {
      tenants: [
        {
          id: 'big',
          siteApiKey: 'big_site_key_0123456789abcdef',
          users,
          courses: Array.from({ length: 120 }, (_, i) => ({ name: `Course ${i + 1}` })),
          assignments: [
            ...finishers.map((n) => ({ user: id(n), course: 1, progress: 100, result: 50 + n })),
            { user: id(2), course: 2, progress: 100, result: 10 },
          ],
        },
      ],
    };
    const own = await startHarness();
    try {
      expect((await own.admin('/fixtures', { method: 'POST', json: fixture })).status).toBe(200);
      const answer = await own.api.v1.GET('/statistics', {
        headers: { 'x-api-key': 'big_site_key_0123456789abcdef' },
      });
      expect(answer.response.status).toBe(200);
      const body = ok(answer);
      expect(Object.keys(body).sort()).toEqual([
        'leaders',
        'statistics',
        'unassignedCourses',
        'usersWithoutActivity',
        'usersWithoutResults',
      ]);
      expect(body.statistics).toEqual({
        coursesCount: 120,
        assignedCoursesCount: 2,
        groupsCount: 0,
        usersCount: 150,
      });
      const first100 = Array.from({ length: 100 }, (_, i) => id(13 + i));
      expect(body.usersWithoutActivity.map((u) => u.id)).toEqual(first100);
      expect(body.usersWithoutResults.map((u) => u.id)).toEqual(first100);
      expect(body.unassignedCourses.map((c) => c.id)).toEqual(Array.from({ length: 100 }, (_, i) => 3 + i));
      // u2 first (two courses), then by average result, highest first: u12, u11, … u4; u3 and u1 cut.
      expect(body.leaders.map((l) => l.user.id)).toEqual(['u2', ...[12, 11, 10, 9, 8, 7, 6, 5, 4].map(id)]);
    } finally {
      await own.close();
    }
  });
});

describe('webhook last event (seed 001, Webhook last event)', () => {
  it('answers the latest envelope of a type, in slash form, with occuredAt', async () => {
    await h.api.v1.POST('/users', { body: newUser('hook') });
    const last = await h.api.v1.GET('/webhook/{event}/last', { params: { path: { event: 'user.created' } } });
    expect(last.response.status).toBe(200);
    expect(last.data).toMatchObject({
      type: 'User/Created',
      occuredAt: h.platform.now(),
      body: { user: { email: 'hook@example.test' } },
    });
  });

  it('is case-sensitive and answers 404 when there is none', async () => {
    expect((await h.v1('/webhook/User.Created/last')).status).toBe(404);
  });

  it('forgets events older than 30 days of virtual time', async () => {
    expect((await h.v1('/webhook/course.published/last')).status).toBe(200);
    await h.admin('/clock/advance', { method: 'POST', json: { seconds: 31 * 86_400 } });
    expect((await h.v1('/webhook/course.published/last')).status).toBe(404);
  });
});
