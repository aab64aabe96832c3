// v1, stateful sequences (seed 001), run only with --allow-writes: users are created, patched,
// assigned and banned, and each write is read back before it passes; the documented refusals (taken
// e-mail, short password, invalid e-mail, unknown user, expert) and the attribute and group rules.
// Fixtures are named after the run and neutralised afterwards: users banned, groups renamed;
// attribute definitions, which v1 cannot delete, are left invisible.
import { type Context, evidenceOf, fail, pass } from '../context.ts';
import { Departure } from '../outcomes.ts';
import type { Check } from '../types.ts';
import { contractCheck, judge, v1CourseId, v2User } from './helpers.ts';
import {
  createGroup,
  createUser,
  definition,
  email,
  firstOf,
  fixtureGroup,
  fixtureUser,
  upsert,
  withUser,
} from './v1-fixtures.ts';

const needs = { apiKey: true, writes: true };
const area = (a: string) => `v1.${a}`;

/** Seed 001: attribute validation answers 400 with the error keyed `attributes[0].<field>`. */
function attributeRefused(
  id: string,
  rule: string,
  title: string,
  field: string,
  item: (ctx: Context) => Record<string, unknown>,
): Check {
  return contractCheck({
    id,
    area: area('attributes'),
    level: 'MUST',
    rules: [rule, '001/errors.shape', '001/errors.validation'],
    title,
    needs,
    api: 'v1',
    operationId: 'createGroupAttributes',
    expect: [400],
    request: async (ctx) => ({ headers: ctx.v1Headers(), body: [item(ctx)] }),
    verify: (_ctx, e) =>
      (e.body as { errors?: Record<string, unknown> })?.errors?.[`attributes[0].${field}`]
        ? pass()
        : fail(`no error keyed attributes[0].${field}`, evidenceOf(e, `errors["attributes[0].${field}"]`)),
  });
}

export const v1WriteChecks: Check[] = [
  {
    id: 'v1.users.create.contract',
    area: area('users'),
    level: 'MUST',
    rules: [
      '001/users.create',
      '001/users.response',
      '001/users.id-generated',
      '001/users.id-alphanumeric',
      '001/users.fromapi-default',
      '001/users.language',
      '001/users.role-object',
      '001/users.image',
      '001/conventions.json',
    ],
    title: 'creating a user answers the user object with a generated id',
    needs,
    run: async (ctx) => {
      const { e } = await fixtureUser(ctx);
      const verdict = judge(ctx.v1, 'createUser', e, [201]);
      if (verdict.status !== 'pass') return verdict;
      const user = e.body as { id?: string; email?: string; isBanned?: boolean; fromApi?: boolean };
      return user.id && user.email === email(ctx, 'user') && user.isBanned === false && user.fromApi === true
        ? pass()
        : fail(
            'the answer is not the new user (an id, the e-mail sent, isBanned false, fromApi true by default)',
            evidenceOf(e, 'the user'),
          );
    },
  },
  {
    id: 'v1.users.create.duplicate-email',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.email-unique', '001/errors.shape', '001/errors.validation'],
    title: 'a second user with a taken e-mail is refused with 400 and errors.email',
    needs,
    run: (ctx) =>
      withUser(ctx, async () => {
        const { e } = await createUser(ctx, 'user', { name: 'lmskit duplicate' });
        const verdict = judge(ctx.v1, 'createUser', e, [400]);
        if (verdict.status !== 'pass') return verdict;
        return (e.body as { errors?: Record<string, unknown> })?.errors?.email
          ? pass()
          : fail('the 400 has no errors.email', evidenceOf(e, 'errors.email'));
      }),
  },
  {
    id: 'v1.users.create.short-password',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.password-min', '001/errors.shape'],
    title: 'a password shorter than 8 characters is refused with 400',
    needs,
    run: async (ctx) =>
      judge(ctx.v1, 'createUser', (await createUser(ctx, 'short', { password: 'seven77' })).e, [400]),
  },
  {
    id: 'v1.users.create.assigns',
    area: area('users'),
    level: 'MUST',
    rules: [
      '001/users.create-assigns',
      '001/assignments.user-list',
      '001/assignments.progress',
      '001/assignments.flags',
      '001/assignments.course',
    ],
    title: 'a user created with courses has those courses in their assignments',
    needs,
    run: async (ctx) => {
      const courseId = await v1CourseId(ctx);
      const { e, id } = await createUser(ctx, 'assigned', { courses: [courseId] });
      const created = judge(ctx.v1, 'createUser', e, [201]);
      if (created.status !== 'pass') return created;
      const list = await ctx.v1.call('listUserAssignments', {
        params: { userId: id ?? '' },
        headers: ctx.v1Headers(),
      });
      const verdict = judge(ctx.v1, 'listUserAssignments', list, [200]);
      if (verdict.status !== 'pass') return verdict;
      return (list.body as { assignments: { course: { id: number } }[] }).assignments.some(
        (a) => a.course.id === courseId,
      )
        ? pass()
        : fail(
            `course ${courseId} is not among the new user's assignments`,
            evidenceOf(list, `an assignment of course ${courseId}`),
          );
    },
  },
  {
    id: 'v1.webhooks.group-user-created',
    area: area('webhooks'),
    level: 'MUST',
    rules: ['001/webhooks.group-user-created', '001/webhooks.last', '001/users.create-groups'],
    title: 'a user created into a group records group.user.created with that user and group',
    needs,
    run: async (ctx) => {
      const group = await fixtureGroup(ctx);
      const { e } = await createUser(ctx, 'member', { groups: [group.id] });
      const created = judge(ctx.v1, 'createUser', e, [201]);
      if (created.status !== 'pass') return created;
      const last = await ctx.v1.call('getLastWebhookEvent', {
        params: { event: 'group.user.created' },
        headers: ctx.v1Headers(),
      });
      const verdict = judge(ctx.v1, 'getLastWebhookEvent', last, [200]);
      if (verdict.status !== 'pass') return verdict;
      const body = (last.body as { body?: { user?: { email?: string }; group?: { id?: number } } })?.body;
      return body?.user?.email === email(ctx, 'member') && body.group?.id === group.id
        ? pass()
        : fail(
            'the last group.user.created event is not the new member joining the group',
            evidenceOf(last, `body.user.email ${email(ctx, 'member')}, body.group.id ${group.id}`),
          );
    },
  },
  {
    id: 'v1.users.patch',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.patch', '001/users.patch-fields'],
    title: 'patching a user answers 200, and the new e-mail is then taken',
    needs,
    run: (ctx) =>
      withUser(ctx, async (id) => {
        const patched = await ctx.v1.call('updateUser', {
          params: { userId: id },
          headers: ctx.v1Headers(),
          body: { email: email(ctx, 'patched'), occupation: 'Conformance' },
        });
        const verdict = judge(ctx.v1, 'updateUser', patched, [200]);
        if (verdict.status !== 'pass') return verdict;
        // Read back through the e-mail rule: the new address now belongs to someone (seed 001, Users).
        const { e } = await createUser(ctx, 'patched', { name: 'lmskit after patch' });
        return e.status === 400
          ? pass()
          : fail(
              `after PATCH email ${email(ctx, 'patched')}, creating another user with it answered ${e.status}: the change was not kept`,
              evidenceOf(e, '400: the e-mail is taken'),
            );
      }),
  },
  {
    id: 'v1.users.patch.invalid-email',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.patch-validation', '001/errors.shape'],
    title: 'patching a user with an invalid e-mail is refused with 400',
    needs,
    run: (ctx) =>
      withUser(ctx, async (id) =>
        judge(
          ctx.v1,
          'updateUser',
          await ctx.v1.call('updateUser', {
            params: { userId: id },
            headers: ctx.v1Headers(),
            body: { email: 'not an e-mail' },
          }),
          [400],
        ),
      ),
  },
  {
    id: 'v1.users.assign-and-list',
    area: area('assignments'),
    level: 'MUST',
    rules: [
      '001/assignments.assign',
      '001/assignments.assign-response',
      '001/assignments.user-list',
      '001/assignments.course-list',
      '001/assignments.progress',
      '001/assignments.flags',
      '001/assignments.course',
      '001/assignments.user',
    ],
    title: "assigning a course lists the user as assigned, in the user's and in the course's assignments",
    needs,
    run: (ctx) =>
      withUser(ctx, async (id) => {
        const courseId = await v1CourseId(ctx);
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
        const mine = await ctx.v1.call('listUserAssignments', {
          params: { userId: id },
          headers: ctx.v1Headers(),
        });
        const mineOk = judge(ctx.v1, 'listUserAssignments', mine, [200]);
        if (mineOk.status !== 'pass') return mineOk;
        if (
          !(mine.body as { assignments: { course: { id: number } }[] }).assignments.some(
            (a) => a.course.id === courseId,
          )
        )
          return fail(
            "the course is not in the user's assignments",
            evidenceOf(mine, `an assignment of course ${courseId}`),
          );
        const theirs = await ctx.v1.call('listCourseAssignments', {
          params: { courseId },
          headers: ctx.v1Headers(),
        });
        const theirsOk = judge(ctx.v1, 'listCourseAssignments', theirs, [200]);
        if (theirsOk.status !== 'pass') return theirsOk;
        const b = theirs.body as { assignments: { user: { id: string } }[]; totalCount: number };
        return b.assignments.some((a) => a.user.id === id) || b.totalCount > b.assignments.length
          ? pass()
          : fail(
              "the user is not in the course's assignments",
              evidenceOf(theirs, `an assignment of user ${id}`),
            );
      }),
  },
  {
    id: 'v1.webhooks.user-created',
    area: area('webhooks'),
    level: 'MUST',
    rules: ['001/webhooks.user-created', '001/webhooks.last'],
    title: 'creating a user records a user.created event that /webhook/user.created/last returns',
    needs,
    run: async (ctx) => {
      const { e: created } = await createUser(ctx, 'event');
      const ok = judge(ctx.v1, 'createUser', created, [201]);
      if (ok.status !== 'pass') return ok;
      const e = await ctx.v1.call('getLastWebhookEvent', {
        params: { event: 'user.created' },
        headers: ctx.v1Headers(),
      });
      const verdict = judge(ctx.v1, 'getLastWebhookEvent', e, [200]);
      if (verdict.status !== 'pass') return verdict;
      const mail = (e.body as { body?: { user?: { email?: string } } })?.body?.user?.email;
      return mail === email(ctx, 'event')
        ? pass()
        : fail(
            "the last user.created event is not the new user's",
            evidenceOf(e, `body.user.email ${email(ctx, 'event')}`),
          );
    },
  },
  {
    id: 'v1.users.ban',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.ban', '001/users.ban-response'],
    title: 'banning a user answers the user with isBanned true, and a second ban agrees',
    needs,
    run: async (ctx) => {
      const { id, e: created } = await createUser(ctx, 'banned');
      if (!id) return judge(ctx.v1, 'createUser', created, [201]);
      const e = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id } });
      const verdict = judge(ctx.v1, 'blockUser', e, [200]);
      if (verdict.status !== 'pass') return verdict;
      if ((e.body as { isBanned?: boolean })?.isBanned !== true || (e.body as { id?: string }).id !== id)
        return fail(
          'the answer is not the user with isBanned true',
          evidenceOf(e, `user ${id}, isBanned: true`),
        );
      ctx.once('v1.bannedUser', async () => ({ id, email: email(ctx, 'banned') }));
      return pass();
    },
  },
  {
    id: 'v1.users.ban.persisted',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.ban', '000/get-user'],
    title: 'a user banned through v1 reads back as banned through v2 (get_user status)',
    needs: { ...needs, mcpScope: 'read' },
    run: async (ctx) => {
      const banned = await ctx.once<{ id: string; email: string } | undefined>('v1.bannedUser', async () => {
        const { id } = await createUser(ctx, 'banned');
        if (!id) return undefined;
        const e = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id } });
        return e.status < 300 ? { id, email: email(ctx, 'banned') } : undefined;
      });
      if (!banned) throw new Departure('no user could be created and banned through v1');
      const { detail, status } = await v2User(ctx, banned.email);
      return status === 'banned'
        ? pass()
        : fail(
            `after POST /users/blocked answered isBanned true, get_user says status ${status}`,
            evidenceOf(detail, 'status banned'),
          );
    },
  },
  contractCheck({
    id: 'v1.users.ban.expert',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.ban-expert', '001/errors.shape'],
    title: 'banning an expert answers 422 with the blocking courses in data.courses',
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
    id: 'v1.attributes.groups.upsert',
    area: area('attributes'),
    level: 'MUST',
    rules: ['001/attributes.groups-upsert', '001/attributes.groups-response'],
    title: 'a group attribute posted again with the same apiId is updated, not created',
    needs,
    run: async (ctx) => {
      const apiId = `${ctx.runId}_upsert`;
      const created = await upsert(ctx, 'groups', [definition(ctx, 'upsert', { apiId, type: 1 })]);
      const first = judge(ctx.v1, 'createGroupAttributes', created, [200]);
      if (first.status !== 'pass') return first;
      const updated = await upsert(ctx, 'groups', [definition(ctx, 'upsert renamed', { apiId, type: 1 })]);
      const second = judge(ctx.v1, 'createGroupAttributes', updated, [200]);
      if (second.status !== 'pass') return second;
      const [a, b] = [firstOf(created), firstOf(updated)];
      return a && b && a.id === b.id && b.name === `lmskit ${ctx.runId} upsert renamed` && b.apiId === apiId
        ? pass()
        : fail(
            `the second post with apiId ${apiId} did not update attribute ${a?.id} (answered id ${b?.id}, name ${b?.name})`,
            evidenceOf(updated, `attribute ${a?.id} with the new name`),
          );
    },
  },
  {
    id: 'v1.attributes.groups.type-change-refused',
    area: area('attributes'),
    level: 'MUST',
    rules: ['001/attributes.type-fixed', '001/errors.shape'],
    title: 'posting a group attribute with the same apiId and another type is refused with 400',
    needs,
    run: async (ctx) => {
      const apiId = `${ctx.runId}_type`;
      const created = await upsert(ctx, 'groups', [definition(ctx, 'type', { apiId, type: 1 })]);
      const first = judge(ctx.v1, 'createGroupAttributes', created, [200]);
      if (first.status !== 'pass') return first;
      return judge(
        ctx.v1,
        'createGroupAttributes',
        await upsert(ctx, 'groups', [definition(ctx, 'type', { apiId, type: 8 })]),
        [400],
      );
    },
  },
  {
    id: 'v1.attributes.groups.options-modifiable',
    area: area('attributes'),
    level: 'MUST',
    rules: [
      '001/attributes.options-modifiable',
      '001/attributes.option-fields',
      '001/attributes.groups-response',
    ],
    title: "a choice attribute's options can be changed: a second option is added",
    needs,
    run: async (ctx) => {
      const apiId = `${ctx.runId}_choice`;
      const option = (position: number, value: string) => ({ position, value });
      const created = await upsert(ctx, 'groups', [
        definition(ctx, 'choice', { apiId, type: 3, extraData: [option(1, 'Red')] }),
      ]);
      const first = judge(ctx.v1, 'createGroupAttributes', created, [200]);
      if (first.status !== 'pass') return first;
      const updated = await upsert(ctx, 'groups', [
        definition(ctx, 'choice', { apiId, type: 3, extraData: [option(1, 'Red'), option(2, 'Blue')] }),
      ]);
      const second = judge(ctx.v1, 'createGroupAttributes', updated, [200]);
      if (second.status !== 'pass') return second;
      const values = (firstOf(updated)?.extraData ?? []).map((o) => o.value).sort();
      return values.join() === 'Blue,Red'
        ? pass()
        : fail(
            `the options are ${values.join(', ') || 'none'} after adding Blue`,
            evidenceOf(updated, 'options Red and Blue'),
          );
    },
  },
  attributeRefused(
    'v1.attributes.choice-needs-options',
    '001/attributes.choice-options',
    'a choice attribute without options is refused with 400, keyed attributes[0].extraData',
    'extraData',
    (ctx) => definition(ctx, 'no options', { type: 3 }),
  ),
  attributeRefused(
    'v1.attributes.name-required',
    '001/attributes.name-required',
    'an attribute without a name is refused with 400, keyed attributes[0].name',
    'name',
    (ctx) => {
      const { name: _name, ...rest } = definition(ctx, 'nameless', { type: 1 });
      return rest;
    },
  ),
  attributeRefused(
    'v1.attributes.type-range',
    '001/attributes.type-range',
    'an attribute of type 9 is refused with 400, keyed attributes[0].type',
    'type',
    (ctx) => definition(ctx, 'type nine', { type: 9 }),
  ),
  contractCheck({
    id: 'v1.attributes.position-positive',
    area: area('attributes'),
    level: 'MUST',
    rules: ['001/attributes.position-positive', '001/errors.shape'],
    title: 'an attribute at position 0 is refused with 400',
    needs,
    api: 'v1',
    operationId: 'createGroupAttributes',
    expect: [400],
    request: async (ctx) => ({
      headers: ctx.v1Headers(),
      body: [definition(ctx, 'position zero', { type: 1, position: 0 })],
    }),
  }),
  {
    id: 'v1.attributes.users.upsert',
    area: area('attributes'),
    level: 'MUST',
    rules: ['001/attributes.users-upsert', '001/attributes.users-response', '001/attributes.apiid-generated'],
    title: 'a user attribute posted again with its id is updated, and its type cannot change',
    needs,
    run: async (ctx) => {
      const base = definition(ctx, 'user attr', { type: 1, isEditable: false });
      const created = await upsert(ctx, 'users', [base]);
      const first = judge(ctx.v1, 'createUserAttributes', created, [200]);
      if (first.status !== 'pass') return first;
      const id = firstOf(created)?.id;
      const updated = await upsert(ctx, 'users', [
        { ...base, id, name: `lmskit ${ctx.runId} user attr renamed` },
      ]);
      const second = judge(ctx.v1, 'createUserAttributes', updated, [200]);
      if (second.status !== 'pass') return second;
      if (firstOf(updated)?.id !== id || firstOf(updated)?.name !== `lmskit ${ctx.runId} user attr renamed`)
        return fail(
          `posting attribute ${id} again did not update it`,
          evidenceOf(updated, `attribute ${id} renamed`),
        );
      ctx.once('v1.userTextAttribute', async () => firstOf(created));
      return pass();
    },
  },
  {
    id: 'v1.attributes.users.type-change-refused',
    area: area('attributes'),
    level: 'MUST',
    rules: ['001/attributes.type-fixed', '001/errors.shape'],
    title: 'posting a user attribute with its id and another type is refused with 400',
    needs,
    run: async (ctx) => {
      const base = definition(ctx, 'user type', { type: 1, isEditable: false });
      const created = await upsert(ctx, 'users', [base]);
      const first = judge(ctx.v1, 'createUserAttributes', created, [200]);
      if (first.status !== 'pass') return first;
      return judge(
        ctx.v1,
        'createUserAttributes',
        await upsert(ctx, 'users', [{ ...base, id: firstOf(created)?.id, type: 8 }]),
        [400],
      );
    },
  },
  {
    id: 'v1.attributes.users.apiid-unique',
    area: area('attributes'),
    level: 'MUST',
    rules: ['001/attributes.apiid-unique', '001/errors.shape'],
    title: "a new user attribute with another attribute's apiId is refused with 400",
    needs,
    run: async (ctx) => {
      const apiId = `${ctx.runId}_unique`;
      const created = await upsert(ctx, 'users', [
        definition(ctx, 'unique', { apiId, type: 1, isEditable: false }),
      ]);
      const first = judge(ctx.v1, 'createUserAttributes', created, [200]);
      if (first.status !== 'pass') return first;
      return judge(
        ctx.v1,
        'createUserAttributes',
        await upsert(ctx, 'users', [definition(ctx, 'unique twin', { apiId, type: 1, isEditable: false })]),
        [400],
      );
    },
  },
  {
    id: 'v1.attributes.text-255',
    area: area('attributes'),
    level: 'MUST',
    rules: ['001/attributes.text-255', '001/errors.shape'],
    title: 'a user whose text attribute value has 256 characters is refused with 400',
    needs,
    run: async (ctx) => {
      const apiId = `${ctx.runId}_text`;
      const created = await upsert(ctx, 'users', [
        definition(ctx, 'text', { apiId, type: 1, isEditable: false }),
      ]);
      const first = judge(ctx.v1, 'createUserAttributes', created, [200]);
      if (first.status !== 'pass') return first;
      const key = firstOf(created)?.apiId ?? apiId;
      const { e } = await createUser(ctx, 'long-text', { attributes: { [key]: 'x'.repeat(256) } });
      return judge(ctx.v1, 'createUser', e, [400]);
    },
  },
  {
    id: 'v1.groups.create-and-detach',
    area: area('groups'),
    level: 'MUST',
    rules: [
      '001/groups.create',
      '001/groups.parent',
      '001/groups.update',
      '001/groups.detach',
      '001/groups.statistics',
    ],
    title: 'a created group starts empty; PATCH renames it and parentId null detaches it',
    needs,
    run: async (ctx) => {
      const parent = await createGroup(ctx, 'parent');
      const child = await createGroup(ctx, 'child', { parentId: parent.id });
      const created = judge(ctx.v1, 'createGroup', child.e, [201]);
      if (created.status !== 'pass') return created;
      const c = child.e.body as {
        usersCount?: number;
        coursesCount?: number;
        parentId?: number;
        image?: unknown;
      };
      if (c.usersCount !== 0 || c.coursesCount !== 0 || c.parentId !== parent.id || c.image !== null)
        return fail(
          'the new group is not {usersCount: 0, coursesCount: 0, image: null, parentId}',
          evidenceOf(child.e, `usersCount 0, coursesCount 0, image null, parentId ${parent.id}`),
        );
      const name = `lmskit ${ctx.runId} detached`;
      const detached = await ctx.v1.call('updateGroup', {
        params: { groupId: child.id },
        headers: ctx.v1Headers(),
        body: { name, parentId: null },
      });
      const verdict = judge(ctx.v1, 'updateGroup', detached, [200]);
      if (verdict.status !== 'pass') return verdict;
      const d = detached.body as { parentId?: unknown; name?: string };
      if (d.parentId !== null || d.name !== name)
        return fail(
          'the group is not renamed and detached after PATCH',
          evidenceOf(detached, `name ${name}, parentId null`),
        );
      const stats = await ctx.v1.call('getGroupStatistics', {
        params: { groupId: child.id },
        headers: ctx.v1Headers(),
      });
      const read = judge(ctx.v1, 'getGroupStatistics', stats, [200]);
      if (read.status !== 'pass') return read;
      const group = (stats.body as { group?: { name?: string; parentId?: unknown } }).group;
      return group?.name === name && group.parentId === null
        ? pass()
        : fail(
            'the group statistics still show the old name or parent',
            evidenceOf(stats, `group.name ${name}, parentId null`),
          );
    },
  },
  contractCheck({
    id: 'v1.groups.name-required',
    area: area('groups'),
    level: 'MUST',
    rules: ['001/groups.validation', '001/errors.shape', '001/errors.validation'],
    title: 'a group without a name is refused with 400, errors keyed name',
    needs,
    api: 'v1',
    operationId: 'createGroup',
    expect: [400],
    request: async (ctx) => ({
      headers: ctx.v1Headers(),
      body: { description: `lmskit ${ctx.runId} nameless` },
    }),
    verify: (_ctx, e) =>
      (e.body as { errors?: Record<string, unknown> })?.errors?.name
        ? pass()
        : fail('no error keyed name', evidenceOf(e, 'errors.name')),
  }),
  {
    id: 'v1.groups.statistics.contract',
    area: area('groups'),
    level: 'MUST',
    rules: ['001/groups.statistics', '001/conventions.json'],
    title: "a group's statistics answer {group, usersWithoutActivity, usersWithoutResults, leaders}",
    needs,
    run: async (ctx) => {
      const { id } = await fixtureGroup(ctx);
      return judge(
        ctx.v1,
        'getGroupStatistics',
        await ctx.v1.call('getGroupStatistics', { params: { groupId: id }, headers: ctx.v1Headers() }),
        [200],
      );
    },
  },
];
