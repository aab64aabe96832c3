// v1, stateful sequences (seed 001), run only with --allow-writes: a user is created, read back,
// patched, assigned, listed and banned; the documented refusals (taken e-mail, short password,
// unknown user, expert) and the attribute and group rules. Fixtures are named after the run and
// neutralised afterwards: users banned, groups renamed; attribute definitions, which v1 cannot
// delete, are left invisible.
import { type Context, evidenceOf, fail, pass, skip } from '../context.ts';
import type { Check, Verdict } from '../types.ts';
import { contractCheck, judge, need, UNKNOWN_ID, v1CourseId } from './helpers.ts';

const S = 'seed 001';
const needs = { apiKey: true, writes: true };
const area = (a: string) => `v1.${a}`;

const email = (ctx: Context, tag: string) => `${ctx.runId}-${tag}@example.invalid`;

/** The run's user: created once, banned at the end. */
const fixtureUser = (ctx: Context) =>
  ctx.once('v1.fixtureUser', async () => {
    const e = await ctx.v1.call('createUser', {
      headers: ctx.v1Headers(),
      body: {
        name: 'lmskit conformance',
        email: email(ctx, 'user'),
        password: 'Conformance-123',
        roleAlias: 'learner',
      },
    });
    const id = (e.body as { id?: string })?.id;
    if (id) ctx.cleanup(() => ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id } }));
    return { exchange: e, id };
  });

const withUser = async (ctx: Context, then: (id: string) => Promise<Verdict>): Promise<Verdict> => {
  const { id, exchange } = await fixtureUser(ctx);
  return id
    ? then(id)
    : fail('the fixture user could not be created', evidenceOf(exchange, '201 with the user'));
};

export const v1WriteChecks: Check[] = [
  {
    id: 'v1.users.create.contract',
    area: area('users'),
    level: 'SHOULD',
    source: `${S}, Users: POST /users answers the user object (success status not shown; 201 assumed)`,
    title: 'creating a user answers 201 with the user object',
    needs,
    run: async (ctx) => {
      const { exchange } = await fixtureUser(ctx);
      return judge(ctx.v1, 'createUser', exchange, [201]);
    },
  },
  {
    id: 'v1.users.create.duplicate-email',
    area: area('users'),
    level: 'MUST',
    source: `${S}, Users: email unique; 400 "e-mail already taken"`,
    title: 'a second user with a taken e-mail is refused with 400 and errors.email',
    needs,
    run: (ctx) =>
      withUser(ctx, async () => {
        const e = await ctx.v1.call('createUser', {
          headers: ctx.v1Headers(),
          body: {
            name: 'lmskit duplicate',
            email: email(ctx, 'user'),
            password: 'Conformance-123',
            roleAlias: 'learner',
          },
        });
        const verdict = judge(ctx.v1, 'createUser', e, [400]);
        if (verdict.status !== 'pass') return verdict;
        return (e.body as { errors?: Record<string, unknown> })?.errors?.email
          ? pass()
          : fail('the 400 has no errors.email', evidenceOf(e, 'errors.email'));
      }),
  },
  contractCheck({
    id: 'v1.users.create.short-password',
    area: area('users'),
    level: 'MUST',
    source: `${S}, Users: password at least 8 characters; 400`,
    title: 'a password shorter than 8 characters is refused with 400',
    needs,
    api: 'v1',
    operationId: 'createUser',
    expect: [400],
    request: async (ctx) => ({
      headers: ctx.v1Headers(),
      body: { name: 'lmskit short', email: email(ctx, 'short'), password: 'seven77', roleAlias: 'learner' },
    }),
  }),
  {
    id: 'v1.users.read-back',
    area: area('users'),
    level: 'MUST',
    source: `${S}, Courses and assignments: GET /users/{userId}/assignments`,
    title: 'a created user is found: its assignments list answers 200',
    needs,
    run: (ctx) =>
      withUser(ctx, async (id) =>
        judge(
          ctx.v1,
          'listUserAssignments',
          await ctx.v1.call('listUserAssignments', { params: { userId: id }, headers: ctx.v1Headers() }),
          [200],
        ),
      ),
  },
  {
    id: 'v1.users.patch',
    area: area('users'),
    level: 'MUST',
    source: `${S}, Users: PATCH /users/{userId} returns 200, no body`,
    title: 'patching a user answers 200',
    needs,
    run: (ctx) =>
      withUser(ctx, async (id) => {
        const e = await ctx.v1.call('updateUser', {
          params: { userId: id },
          headers: ctx.v1Headers(),
          body: { email: email(ctx, 'user'), occupation: 'Conformance' },
        });
        return judge(ctx.v1, 'updateUser', e, [200]);
      }),
  },
  {
    id: 'v1.users.assign-and-list',
    area: area('assignments'),
    level: 'MUST',
    source: `${S}, Courses and assignments: POST /courses/{courseId}/assignments lists those assigned; the user's list shows the course`,
    title: 'assigning a course to the user lists them as assigned and the course in their assignments',
    needs,
    run: (ctx) =>
      withUser(ctx, async (id) => {
        const courseId = need(await v1CourseId(ctx), 'course');
        if (typeof courseId !== 'number') return courseId;
        const e = await ctx.v1.call('assignCourse', {
          params: { courseId },
          headers: ctx.v1Headers(),
          body: { users: [id] },
        });
        const verdict = judge(ctx.v1, 'assignCourse', e, [200]);
        if (verdict.status !== 'pass') return verdict;
        if (!(e.body as { users?: { id: string }[] })?.users?.some((u) => u.id === id))
          return fail(
            'the answer does not list the user as assigned',
            evidenceOf(e, `users to contain ${id}`),
          );
        const list = await ctx.v1.call('listUserAssignments', {
          params: { userId: id },
          headers: ctx.v1Headers(),
        });
        const found = (list.body as { assignments?: { course: { id: number } }[] })?.assignments?.some(
          (a) => a.course.id === courseId,
        );
        return found
          ? pass()
          : fail(
              "the course is not in the user's assignments",
              evidenceOf(list, `an assignment of course ${courseId}`),
            );
      }),
  },
  contractCheck({
    id: 'v1.assignments.unknown-course',
    area: area('assignments'),
    level: 'MUST',
    source: `${S}, Courses and assignments: "404 when the course is missing"`,
    title: 'assigning an unknown course answers 404',
    needs,
    api: 'v1',
    operationId: 'assignCourse',
    expect: [404],
    request: async (ctx) => ({
      params: { courseId: UNKNOWN_ID },
      headers: ctx.v1Headers(),
      body: { users: [] },
    }),
  }),
  {
    id: 'v1.webhooks.user-created',
    area: area('webhooks'),
    level: 'MUST',
    source: `${S}, Events: user.created; Webhook last event`,
    title: 'creating a user records a user.created event that /webhook/user.created/last returns',
    needs,
    run: (ctx) =>
      withUser(ctx, async () => {
        const e = await ctx.v1.call('getLastWebhookEvent', {
          params: { event: 'user.created' },
          headers: ctx.v1Headers(),
        });
        const verdict = judge(ctx.v1, 'getLastWebhookEvent', e, [200]);
        if (verdict.status !== 'pass') return verdict;
        const mail = (e.body as { body?: { user?: { email?: string } } })?.body?.user?.email;
        return mail === email(ctx, 'user')
          ? pass()
          : fail(
              "the last user.created event is not the fixture user's",
              evidenceOf(e, `body.user.email ${email(ctx, 'user')}`),
            );
      }),
  },
  {
    id: 'v1.users.ban',
    area: area('users'),
    level: 'MUST',
    source: `${S}, User ban state: POST /users/blocked → isBanned true`,
    title: 'banning the user answers the user with isBanned true',
    needs,
    run: (ctx) =>
      withUser(ctx, async (id) => {
        const e = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id } });
        const verdict = judge(ctx.v1, 'blockUser', e, [200]);
        if (verdict.status !== 'pass') return verdict;
        return (e.body as { isBanned?: boolean })?.isBanned === true
          ? pass()
          : fail('isBanned is not true', evidenceOf(e, 'isBanned: true'));
      }),
  },
  contractCheck({
    id: 'v1.users.ban.unknown',
    area: area('users'),
    level: 'MUST',
    source: `${S}, User ban state: user missing → 404`,
    title: 'banning an unknown user answers 404',
    needs,
    api: 'v1',
    operationId: 'blockUser',
    expect: [404],
    request: async (ctx) => ({ headers: ctx.v1Headers(), body: { id: `nobody${ctx.runId}` } }),
  }),
  contractCheck({
    id: 'v1.users.ban.expert',
    area: area('users'),
    level: 'MUST',
    source: `${S}, User ban state: user is expert on courses → 422 with the blocking courses (data.courses)`,
    title: 'banning an expert answers 422 with data.courses and leaves them active',
    needs: { ...needs, config: ['expertUserId'] },
    api: 'v1',
    operationId: 'blockUser',
    expect: [422],
    request: async (ctx) => ({ headers: ctx.v1Headers(), body: { id: ctx.config.expertUserId } }),
    verify: (_ctx, e) => {
      const courses = (e.body as { data?: { courses?: unknown[] } })?.data?.courses;
      return Array.isArray(courses) && courses.length > 0
        ? pass()
        : fail('data.courses is missing or empty', evidenceOf(e, 'data.courses with the blocking courses'));
    },
  }),
  {
    id: 'v1.attributes.type-change-refused',
    area: area('attributes'),
    level: 'MUST',
    source: `${S}, Custom attributes: "Type cannot change"; groups matched by apiId`,
    title: 'upserting a group attribute with the same apiId and another type is refused with 400',
    needs,
    run: async (ctx) => {
      const apiId = `${ctx.runId}_attr`;
      const definition = {
        name: `lmskit ${ctx.runId}`,
        apiId,
        position: 999,
        isRequired: false,
        isVisible: false,
      };
      const created = await ctx.v1.call('createGroupAttributes', {
        headers: ctx.v1Headers(),
        body: [{ ...definition, type: 1 }],
      });
      const first = judge(ctx.v1, 'createGroupAttributes', created, [200]);
      if (first.status !== 'pass') return first;
      const changed = await ctx.v1.call('createGroupAttributes', {
        headers: ctx.v1Headers(),
        body: [{ ...definition, type: 8 }],
      });
      return judge(ctx.v1, 'createGroupAttributes', changed, [400]);
    },
  },
  contractCheck({
    id: 'v1.attributes.choice-needs-options',
    area: area('attributes'),
    level: 'MUST',
    source: `${S}, Custom attributes: "choice types need at least one option"; errors keyed attributes[0].extraData`,
    title: 'a choice attribute without options is refused with 400, keyed attributes[0].extraData',
    needs,
    api: 'v1',
    operationId: 'createGroupAttributes',
    expect: [400],
    request: async (ctx) => ({
      headers: ctx.v1Headers(),
      body: [
        { name: `lmskit ${ctx.runId} choice`, type: 3, position: 999, isRequired: false, isVisible: false },
      ],
    }),
    verify: (_ctx, e) =>
      (e.body as { errors?: Record<string, unknown> })?.errors?.['attributes[0].extraData']
        ? pass()
        : fail('no error keyed attributes[0].extraData', evidenceOf(e, 'errors["attributes[0].extraData"]')),
  }),
  {
    id: 'v1.groups.create-and-detach',
    area: area('groups'),
    level: 'MUST',
    source: `${S}, Groups: a new group has usersCount 0, coursesCount 0; parentId null removes the parent`,
    title: 'a created group starts empty; PATCH with parentId null detaches it',
    needs,
    run: async (ctx) => {
      const parent = await ctx.v1.call('createGroup', {
        headers: ctx.v1Headers(),
        body: { name: `lmskit ${ctx.runId} parent` },
      });
      const parentId = (parent.body as { id?: number })?.id;
      if (parentId === undefined)
        return fail('the group could not be created', evidenceOf(parent, 'the group'));
      const child = await ctx.v1.call('createGroup', {
        headers: ctx.v1Headers(),
        body: { name: `lmskit ${ctx.runId} child`, parentId },
      });
      const c = child.body as { id?: number; usersCount?: number; coursesCount?: number; parentId?: number };
      for (const id of [parentId, c?.id]) {
        if (id !== undefined)
          ctx.cleanup(() =>
            ctx.v1.call('updateGroup', {
              params: { groupId: id },
              headers: ctx.v1Headers(),
              body: { name: `lmskit removed ${ctx.runId}`, parentId: null },
            }),
          );
      }
      if (c?.id === undefined || c.usersCount !== 0 || c.coursesCount !== 0 || c.parentId !== parentId) {
        return fail(
          'the new group is not {usersCount: 0, coursesCount: 0, parentId}',
          evidenceOf(child, `usersCount 0, coursesCount 0, parentId ${parentId}`),
        );
      }
      const detached = await ctx.v1.call('updateGroup', {
        params: { groupId: c.id },
        headers: ctx.v1Headers(),
        body: { name: `lmskit ${ctx.runId} child`, parentId: null },
      });
      const verdict = judge(ctx.v1, 'updateGroup', detached, [200]);
      if (verdict.status !== 'pass') return verdict;
      return (detached.body as { parentId?: unknown })?.parentId === null
        ? pass()
        : fail('parentId is not null after PATCH parentId null', evidenceOf(detached, 'parentId: null'));
    },
  },
  {
    id: 'v1.groups.statistics.contract',
    area: area('groups'),
    level: 'MUST',
    source: `${S}, Groups: GET /groups/{groupId}/statistics`,
    title: "a group's statistics answer {group, usersWithoutActivity, usersWithoutResults, leaders}",
    needs,
    run: async (ctx) => {
      const created = await ctx.v1.call('createGroup', {
        headers: ctx.v1Headers(),
        body: { name: `lmskit ${ctx.runId} stats` },
      });
      const id = (created.body as { id?: number })?.id;
      if (id === undefined) return skip('no group could be created to read statistics of');
      ctx.cleanup(() =>
        ctx.v1.call('updateGroup', {
          params: { groupId: id },
          headers: ctx.v1Headers(),
          body: { name: `lmskit removed ${ctx.runId}` },
        }),
      );
      return judge(
        ctx.v1,
        'getGroupStatistics',
        await ctx.v1.call('getGroupStatistics', { params: { groupId: id }, headers: ctx.v1Headers() }),
        [200],
      );
    },
  },
];
