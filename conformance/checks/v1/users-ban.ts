// v1 users, banned (seed 001, "Endpoints > Users": POST /users/blocked; "States and transitions"): a
// ban answers the user with isBanned true and is kept (read back as banned through v2's get_user);
// an expert's ban is refused with 422 and the blocking courses, and the expert stays active.
// Runs with --allow-writes; the expert is the one --expert-user names.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import { Departure, Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { list, type Obj, obj, show } from '../common/body.ts';
import { v2User } from '../common/discover.ts';
import { createUser, emailFor } from '../common/fixtures.ts';
import { contractCheck, judge, mustPass } from '../common/judge.ts';

const needs = { apiKey: true, writes: true };

/** The expert's refused ban (--expert-user), asked once per run. */
const expertBan = (ctx: Context) =>
  ctx.once('v1data.expertBan', () =>
    ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id: ctx.config.expertUserId ?? '' } }),
  );

/** The e-mail of a v1 user, found in the lists that show users: statistics and course assignments. */
async function emailOf(ctx: Context, userId: string, courseIds: number[]): Promise<string | undefined> {
  const stats = obj((await ctx.v1.call('getStatistics', { headers: ctx.v1Headers() })).body);
  const users = [
    ...list(stats.usersWithoutActivity),
    ...list(stats.usersWithoutResults),
    ...list(stats.leaders).map((l) => obj(l.user)),
  ];
  for (const courseId of courseIds.slice(0, 3)) {
    const e = await ctx.v1.call('listCourseAssignments', { params: { courseId }, headers: ctx.v1Headers() });
    users.push(...list(obj(e.body).assignments).map((a) => obj(a.user)));
  }
  const found = users.find((u) => u.id === userId)?.email;
  return typeof found === 'string' ? found : undefined;
}

export const v1UserBanChecks: Check[] = [
  {
    id: 'v1.users.ban',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.ban', '001/users.ban-response'],
    title: 'banning a user answers the user with isBanned true, and a second ban agrees',
    needs,
    run: async (ctx) => {
      const { id, e: created } = await createUser(ctx, 'banned');
      if (!id) return judge(ctx.v1, 'createUser', created, [201]);
      const e = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id } });
      mustPass(judge(ctx.v1, 'blockUser', e, [200]));
      if ((e.body as { isBanned?: boolean })?.isBanned !== true || (e.body as { id?: string }).id !== id)
        return fail(
          'the answer is not the user with isBanned true',
          evidenceOf(e, `user ${id}, isBanned: true`),
        );
      // The user v1.users.ban.persisted reads back through v2 (it bans one itself if this did not).
      ctx.once('v1.bannedUser', async () => ({ id, email: emailFor(ctx, 'banned') }));
      return pass();
    },
  },
  {
    id: 'v1.users.ban.persisted',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.ban', '000/get-user'],
    title: 'a user banned through v1 reads back as banned through v2 (get_user status)',
    needs: { ...needs, mcpScope: 'read' },
    run: async (ctx) => {
      const banned = await ctx.once<{ id: string; email: string } | undefined>('v1.bannedUser', async () => {
        const { id } = await createUser(ctx, 'banned');
        if (!id) return undefined;
        const e = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id } });
        return e.status < 300 ? { id, email: emailFor(ctx, 'banned') } : undefined;
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
    area: 'v1.users',
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
    id: 'v1.users.ban.expert-courses',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.ban-expert-courses', '001/users.ban-expert', '001/errors.shape'],
    title:
      "an expert's refused ban lists each blocking course with id, name, expertHomeworks and expertClassworks",
    needs: { ...needs, config: ['expertUserId'] },
    run: async (ctx) => {
      const e = await expertBan(ctx);
      mustPass(judge(ctx.v1, 'blockUser', e, [422]));
      const courses = list(obj(obj(e.body).data).courses);
      if (!courses.length) return fail('data.courses is empty', evidenceOf(e, 'the blocking courses'));
      const fields = ['id', 'name', 'expertHomeworks', 'expertClassworks'];
      const lacking = courses.findIndex((c) => fields.some((f) => !(f in c)));
      if (lacking >= 0)
        return fail(
          `blocking course ${lacking + 1} lacks ${fields.filter((f) => !(f in (courses[lacking] as Obj))).join(', ')}`,
          evidenceOf(e, `data.courses[] with ${fields.join(', ')}`),
        );
      // Each is a course of the platform, by the name it has there.
      for (const c of courses.slice(0, 3)) {
        const detail = await ctx.v1.call('getCourse', {
          params: { courseId: c.id as number },
          headers: ctx.v1Headers(),
        });
        mustPass(judge(ctx.v1, 'getCourse', detail, [200]), `blocking course ${c.id}`);
        if (obj(detail.body).name !== c.name)
          return fail(
            `blocking course ${c.id} is named ${show(c.name)}, the course is ${show(obj(detail.body).name)}`,
            evidenceOf(detail, `name ${show(c.name)}`),
          );
      }
      return pass();
    },
  },
  {
    id: 'v1.users.ban.expert-stays-active',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.ban-expert-stays-active'],
    title: 'an expert whose ban was refused with 422 stays active (get_user status)',
    needs: { ...needs, config: ['expertUserId'], mcpScope: 'read' },
    run: async (ctx) => {
      const e = await expertBan(ctx);
      mustPass(judge(ctx.v1, 'blockUser', e, [422]));
      const expert = ctx.config.expertUserId as string;
      const courses = list(obj(obj(e.body).data).courses).map((c) => c.id as number);
      const mail = await emailOf(ctx, expert, courses);
      if (!mail)
        throw new Incomplete(
          `the e-mail of ${expert} is in none of the v1 lists that show users (statistics, the blocking courses' assignments), so get_user cannot be asked`,
        );
      const { detail, status } = await v2User(ctx, mail);
      if (status === 'active') return pass();
      if (status === 'banned')
        return fail(
          `the ban of ${expert} was refused with 422, but get_user says status banned`,
          evidenceOf(detail, 'status active'),
        );
      throw new Incomplete(
        `get_user says status ${show(status)}, which is neither of the kit's active or banned`,
      );
    },
  },
];
