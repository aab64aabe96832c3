// v1 users, created (seed 001, "Endpoints > Users", "Resources > User", "Events"): POST /users answers
// the user with a generated id or the one given, keeps the profile fields, assigns the courses given
// with their deadline, and records user.created (group.user.created for a user created into a
// group); a taken e-mail, a short password and a missing required field are refused. Runs with
// --allow-writes; the users are banned after the run (../common/fixtures.ts). The events' bodies are
// judged in ./webhooks.ts.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Check } from '../../types.ts';
import { obj, show } from '../common/body.ts';
import { v1CourseId } from '../common/discover.ts';
import { createUser, dayFromNow, emailFor, fixtureGroup, fixtureUser, withUser } from '../common/fixtures.ts';
import { judge, mustPass } from '../common/judge.ts';
import { userAssignments } from './assignments.ts';
import { lastEvent } from './webhooks.ts';

const needs = { apiKey: true, writes: true };

const PROFILE = { occupation: 'Conformance tester', location: 'Lisbon', timezone: 'Europe/Lisbon' };

/** A user made with a given id and profile fields (seed 001, POST /users body), once per run. */
export const profiledUser = (ctx: Context) =>
  ctx.once('v1data.profiledUser', async () => {
    const given = `${ctx.runId}given`;
    const made = await createUser(ctx, 'profiled', {
      id: given,
      ...PROFILE,
      bio: 'Made by the lmskit conformance suite.',
    });
    return { ...made, given };
  });

export const v1UserCreateChecks: Check[] = [
  {
    id: 'v1.users.create.contract',
    area: 'v1.users',
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
      mustPass(judge(ctx.v1, 'createUser', e, [201]));
      const user = e.body as { id?: string; email?: string; isBanned?: boolean; fromApi?: boolean };
      return user.id &&
        user.email === emailFor(ctx, 'user') &&
        user.isBanned === false &&
        user.fromApi === true
        ? pass()
        : fail(
            'the answer is not the new user (an id, the e-mail sent, isBanned false, fromApi true by default)',
            evidenceOf(e, 'the user'),
          );
    },
  },
  {
    id: 'v1.users.create.duplicate-email',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.email-unique', '001/errors.shape', '001/errors.validation'],
    title: 'a second user with a taken e-mail is refused with 400 and errors.email',
    needs,
    run: (ctx) =>
      withUser(ctx, async () => {
        const { e } = await createUser(ctx, 'user', { name: 'lmskit duplicate' });
        mustPass(judge(ctx.v1, 'createUser', e, [400]));
        return (e.body as { errors?: Record<string, unknown> })?.errors?.email
          ? pass()
          : fail('the 400 has no errors.email', evidenceOf(e, 'errors.email'));
      }),
  },
  {
    id: 'v1.users.create.short-password',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.password-min', '001/errors.shape'],
    title: 'a password shorter than 8 characters is refused with 400',
    needs,
    run: async (ctx) =>
      judge(ctx.v1, 'createUser', (await createUser(ctx, 'short', { password: 'seven77' })).e, [400]),
  },
  {
    id: 'v1.users.create.assigns',
    area: 'v1.users',
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
      mustPass(judge(ctx.v1, 'createUser', e, [201]));
      const mine = await userAssignments(ctx, id ?? '');
      return mine.ofCourse(courseId)
        ? pass()
        : fail(
            `course ${courseId} is not among the new user's assignments`,
            evidenceOf(mine.e, `an assignment of course ${courseId}`),
          );
    },
  },
  {
    id: 'v1.users.create.required-fields',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.required-fields', '001/errors.shape'],
    title: 'a user without name, email, password or roleAlias is refused with 400',
    needs,
    run: async (ctx) => {
      for (const field of ['name', 'email', 'password', 'roleAlias']) {
        const { e } = await createUser(ctx, `no-${field.toLowerCase()}`, {}, [field]);
        mustPass(judge(ctx.v1, 'createUser', e, [400]), `a user without ${field}`);
      }
      return pass();
    },
  },
  {
    id: 'v1.users.create.id-given',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.id-given'],
    title: 'a user created with an id has that id, and GET /users/{id}/assignments knows it',
    needs,
    run: async (ctx) => {
      const made = await profiledUser(ctx);
      mustPass(judge(ctx.v1, 'createUser', made.e, [201]));
      if (made.id !== made.given)
        return fail(
          `the user was created with id ${made.given} and answered with id ${made.id}`,
          evidenceOf(made.e, `id ${made.given}`),
        );
      const e = await ctx.v1.call('listUserAssignments', {
        params: { userId: made.given },
        headers: ctx.v1Headers(),
      });
      return judge(ctx.v1, 'listUserAssignments', e, [200]);
    },
  },
  {
    id: 'v1.users.create.profile-fields',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.profile-fields'],
    title: 'the occupation, location and timezone given at creation are answered in the user',
    needs,
    run: async (ctx) => {
      // v1 shows these fields only in the answer to POST /users: it has no read of a user.
      const { e } = await profiledUser(ctx);
      mustPass(judge(ctx.v1, 'createUser', e, [201]));
      const user = obj(e.body);
      const off = Object.entries(PROFILE).filter(([k, v]) => user[k] !== v);
      return off.length
        ? fail(
            off.map(([k, v]) => `${k} is ${show(user[k])}, given "${v}"`).join('; '),
            evidenceOf(e, JSON.stringify(PROFILE)),
          )
        : pass();
    },
  },
  {
    id: 'v1.users.create.deadline',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.create-deadline', '001/users.create-assigns'],
    title: 'a user created with courses and deadlineAt has that deadline on those assignments',
    needs,
    run: async (ctx) => {
      const courseId = await v1CourseId(ctx);
      const deadlineAt = dayFromNow(30);
      const made = await createUser(ctx, 'deadline', { courses: [courseId], deadlineAt });
      mustPass(judge(ctx.v1, 'createUser', made.e, [201]));
      const { e, ofCourse } = await userAssignments(ctx, made.id ?? '');
      const a = ofCourse(courseId);
      if (!a)
        return fail(
          `course ${courseId} is not among the new user's assignments`,
          evidenceOf(e, `an assignment of course ${courseId}`),
        );
      return a.deadlineAt === deadlineAt
        ? pass()
        : fail(
            `the assignment made at creation has deadlineAt ${show(a.deadlineAt)}, given ${deadlineAt}`,
            evidenceOf(e, `deadlineAt ${deadlineAt}`),
          );
    },
  },
  {
    id: 'v1.webhooks.group-user-created',
    area: 'v1.webhooks',
    level: 'MUST',
    rules: ['001/webhooks.group-user-created', '001/webhooks.last', '001/users.create-groups'],
    title: 'a user created into a group records group.user.created with that user and group',
    needs,
    run: async (ctx) => {
      const group = await fixtureGroup(ctx);
      const { e } = await createUser(ctx, 'member', { groups: [group.id] });
      mustPass(judge(ctx.v1, 'createUser', e, [201]));
      const last = await lastEvent(ctx, 'group.user.created');
      mustPass(judge(ctx.v1, 'getLastWebhookEvent', last, [200]));
      const body = (last.body as { body?: { user?: { email?: string }; group?: { id?: number } } })?.body;
      return body?.user?.email === emailFor(ctx, 'member') && body.group?.id === group.id
        ? pass()
        : fail(
            'the last group.user.created event is not the new member joining the group',
            evidenceOf(last, `body.user.email ${emailFor(ctx, 'member')}, body.group.id ${group.id}`),
          );
    },
  },
  {
    id: 'v1.webhooks.user-created',
    area: 'v1.webhooks',
    level: 'MUST',
    rules: ['001/webhooks.user-created', '001/webhooks.last'],
    title: 'creating a user records a user.created event that /webhook/user.created/last returns',
    needs,
    run: async (ctx) => {
      const { e: created } = await createUser(ctx, 'event');
      mustPass(judge(ctx.v1, 'createUser', created, [201]));
      const e = await lastEvent(ctx, 'user.created');
      mustPass(judge(ctx.v1, 'getLastWebhookEvent', e, [200]));
      const mail = (e.body as { body?: { user?: { email?: string } } })?.body?.user?.email;
      return mail === emailFor(ctx, 'event')
        ? pass()
        : fail(
            "the last user.created event is not the new user's",
            evidenceOf(e, `body.user.email ${emailFor(ctx, 'event')}`),
          );
    },
  },
];
