// v2 write effects (seed 000, "Write tools"): what the write tools' options do, read back by value
// (./by-value.ts) — a deadline or a start given to assign_training is in the user's assignment and
// one made without them has none (or starts at once); a deadline given with bulk_assign is in every
// one of the group's assignments; ban_user keeps the user's history, in v2's list and in v1's. The
// options seed 000 gives without a wire name (`<deadline>`, `<start>`) are sent under the kit's
// assumed names (`deadlineAt`, `startAt`): a deployment refusing them (400 or 422) makes the check
// incomplete, since it may call them otherwise; one accepting them and not honouring them fails,
// since accepting an option means honouring it. Runs with --allow-writes and a write key; the
// assignments of real courses to the run's users stay, as in ./writes.ts.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { courseToAssign, keyHeaders, v1Courses } from '../common/discover.ts';
import { createGroup, DAY, newUser } from '../common/fixtures.ts';
import { judge, mustPass } from '../common/judge.ts';
import { userAssignments } from '../v1/assignments.ts';
import {
  clockOf,
  entriesIn,
  holdsText,
  iso,
  leaves,
  midnightAfter,
  pathsOfTime,
  secondsOf,
  v2IdOf,
  valueAt,
} from './by-value.ts';

/** v2 writes. */
const v2Writes = { mcpScope: 'write' as const, apiKey: true, writes: true };
const area = (a: string) => `v2.${a}`;

const assignUser = (
  ctx: Context,
  courseId: number,
  body: { userId: number; deadlineAt?: number; startAt?: number },
) =>
  ctx.v2.call('assignUserToCourse', {
    params: { courseId },
    headers: keyHeaders(ctx, 'assignUserToCourse'),
    body,
  });

/** A user's assignments through list_assignments, judged. */
async function assignmentsOfUser(ctx: Context, userId: number) {
  const e = await ctx.v2.call('listUserAssignments', {
    params: { userId },
    headers: keyHeaders(ctx, 'listUserAssignments'),
  });
  mustPass(judge(ctx.v2, 'listUserAssignments', e, [200]));
  return e;
}

/** An option sent under the kit's assumed name and refused: the deployment may name it otherwise. */
function refusedOption(e: Exchange, option: string, name: string): void {
  if (e.status === 400 || e.status === 422)
    throw new Incomplete(
      `the deployment refused the ${option} sent as \`${name}\` (${e.status}): seed 000 writes it <${option}>, without a wire name, and \`${name}\` is the kit's assumption`,
    );
}

/**
 * A course assigned without deadline and start to a new user (seed 000, assign_training: "omitted =
 * no deadline", "omitted = assign immediately"), and that user's list read back: a list of one.
 */
const plainAssignment = (ctx: Context) =>
  ctx.once('v2data.plainAssignment', async () => {
    const user = await newUser(ctx, 'data-plain');
    const userId = await v2IdOf(ctx, user.email);
    const courseId = (await courseToAssign(ctx)).id;
    const e = await assignUser(ctx, courseId, { userId });
    mustPass(judge(ctx.v2, 'assignUserToCourse', e, [200]));
    const list = await assignmentsOfUser(ctx, userId);
    return { courseId, list };
  });

/**
 * Assigns the plain assignment's course to a new user with one option (the kit's name) and reads
 * that user's list back: where the list holds the option's time, and the same places in the list of
 * the plain assignment.
 */
async function assignWith(ctx: Context, tag: string, option: 'deadline' | 'start', daysAhead: number) {
  const plain = await plainAssignment(ctx);
  const clock = clockOf(plain.list);
  const time = midnightAfter(clock + daysAhead * DAY);
  const name = option === 'deadline' ? 'deadlineAt' : 'startAt';
  const user = await newUser(ctx, `data-${tag}`);
  const userId = await v2IdOf(ctx, user.email);
  const e = await assignUser(
    ctx,
    plain.courseId,
    option === 'deadline' ? { userId, deadlineAt: time } : { userId, startAt: time },
  );
  refusedOption(e, option, name);
  mustPass(judge(ctx.v2, 'assignUserToCourse', e, [200]));
  const list = await assignmentsOfUser(ctx, userId);
  return { plain, time, list, paths: pathsOfTime(list.body, time, clockOf(list)) };
}

export const v2WriteEffectChecks: Check[] = [
  {
    id: 'v2.assign.user.deadline',
    area: area('assign'),
    level: 'MUST',
    rules: ['000/assign-training.deadline'],
    title:
      "a deadline given to assign_training is in the user's assignment; an assignment made without one has none",
    needs: v2Writes,
    run: async (ctx) => {
      const { plain, time, list, paths } = await assignWith(ctx, 'deadline', 'deadline', 45);
      if (!paths.length)
        return fail(
          `the deadline ${time} (${iso(time)}) given to assign_training is not in the user's assignments`,
          evidenceOf(list, `the assignment of course ${plain.courseId} with the deadline ${time}`),
        );
      // Where the deadline sits, the assignment made without one holds no date.
      const clock = clockOf(plain.list);
      const given = paths.filter((p) => secondsOf(valueAt(plain.list.body, p), clock) !== undefined);
      return given.length
        ? fail(
            `an assignment made without a deadline has one: ${given[0]?.join('/')} is ${JSON.stringify(valueAt(plain.list.body, given[0] as string[]))}`,
            evidenceOf(plain.list, 'no deadline (seed 000: "omitted = no deadline")'),
          )
        : pass();
    },
  },
  {
    id: 'v2.assign.user.start',
    area: area('assign'),
    level: 'MUST',
    rules: ['000/assign-training.start'],
    title:
      "a start given to assign_training is in the user's assignment; an assignment made without one starts at once",
    needs: v2Writes,
    run: async (ctx) => {
      const { plain, time, list, paths } = await assignWith(ctx, 'start', 'start', 10);
      if (!paths.length)
        return fail(
          `the start ${time} (${iso(time)}) given to assign_training is not in the user's assignments`,
          evidenceOf(list, `the assignment of course ${plain.courseId} starting at ${time}`),
        );
      // Where the start sits, the assignment made without one holds nothing, or a time no later
      // than the moment it was made (its other dates, the deployment's clock).
      const clock = clockOf(plain.list);
      const at = new Set(paths.map((p) => p.join('/')));
      const made = Math.max(
        clock,
        ...leaves(plain.list.body)
          .filter((l) => !at.has(l.path.join('/')))
          .flatMap((l) => secondsOf(l.value, clock) ?? []),
      );
      const later = paths.filter((p) => (secondsOf(valueAt(plain.list.body, p), clock) ?? 0) > made + 3600);
      return later.length
        ? fail(
            `an assignment made without a start starts later: ${later[0]?.join('/')} is ${JSON.stringify(valueAt(plain.list.body, later[0] as string[]))}`,
            evidenceOf(
              plain.list,
              'no start, or the moment it was made (seed 000: "omitted = assign immediately")',
            ),
          )
        : pass();
    },
  },
  {
    id: 'v2.assign.groups.deadline',
    area: area('assign'),
    level: 'MUST',
    rules: ['000/bulk-assign.deadline'],
    title: "a deadline given with bulk_assign's courses is in every one of the group's assignments",
    needs: v2Writes,
    run: async (ctx) => {
      const group = await createGroup(ctx, 'data bulk');
      await newUser(ctx, 'data-bulk-member', [group.id]);
      const listed = await v1Courses(ctx);
      const published = listed.filter((c) => c.isDraft === false);
      const courses = (published.length ? published : listed).slice(0, 2).map((c) => c.id);
      const deadline = midnightAfter(clockOf(group.e) + 60 * DAY);
      // bulk_assign: one POST per course, the deadline applied to all (the kit's name `deadlineAt`).
      for (const courseId of courses) {
        const e = await ctx.v2.call('assignCourseToGroups', {
          params: { courseId },
          headers: keyHeaders(ctx, 'assignCourseToGroups'),
          body: { groups: [group.id], deadlineAt: deadline },
        });
        refusedOption(e, 'deadline', 'deadlineAt');
        mustPass(judge(ctx.v2, 'assignCourseToGroups', e, [200]));
      }
      const list = await ctx.v2.call('listGroupAssignments', {
        params: { groupId: group.id },
        headers: keyHeaders(ctx, 'listGroupAssignments'),
      });
      mustPass(judge(ctx.v2, 'listGroupAssignments', list, [200]));
      const entries = entriesIn(list, "the group's assignments");
      const want = `${courses.length} assignments, each with the deadline ${deadline} (${iso(deadline)})`;
      if (entries.length < courses.length)
        return fail(
          `the group of one member lists ${entries.length} assignments after ${courses.length} courses were assigned to it`,
          evidenceOf(list, want),
        );
      const bare = entries.filter((x) => !pathsOfTime(x, deadline, clockOf(list)).length);
      return bare.length
        ? fail(
            `${bare.length} of the group's ${entries.length} assignments lack the deadline ${deadline} given with them`,
            evidenceOf(list, want),
          )
        : pass();
    },
  },
  {
    id: 'v2.users.ban.keeps-history',
    area: area('users'),
    level: 'MUST',
    rules: ['000/ban-user.keeps-history'],
    title: "banning a user keeps their assignments, in v2's list and in v1's",
    needs: v2Writes,
    run: async (ctx) => {
      const user = await newUser(ctx, 'data-history');
      const userId = await v2IdOf(ctx, user.email);
      const course = await courseToAssign(ctx);
      const courseId = course.id;
      const assigned = await assignUser(ctx, courseId, { userId });
      mustPass(judge(ctx.v2, 'assignUserToCourse', assigned, [200]));
      const before = await assignmentsOfUser(ctx, userId);
      const n = entriesIn(before, "the user's assignments").length;
      if (n < 1)
        return fail(
          `the assignment of course ${courseId} just made is not in the user's list`,
          evidenceOf(before, 'one assignment'),
        );
      const ban = await ctx.v2.call('banUser', { headers: keyHeaders(ctx, 'banUser'), body: { userId } });
      mustPass(judge(ctx.v2, 'banUser', ban, [200]));
      const after = await assignmentsOfUser(ctx, userId);
      const m = entriesIn(after, "the user's assignments").length;
      if (m < n || (holdsText(before.body, course.name) && !holdsText(after.body, course.name)))
        return fail(
          `the user had ${n} assignment(s) before ban_user and ${m} after`,
          evidenceOf(after, `the assignment of course ${courseId}, kept`),
        );
      // v1 (seed 001: GET /users/{userId}/assignments, with the course) must keep it too.
      const v1List = await userAssignments(ctx, user.apiId);
      return v1List.ofCourse(courseId)
        ? pass()
        : fail(
            `after ban_user, GET /openapi/v1/users/${user.apiId}/assignments no longer lists course ${courseId}`,
            evidenceOf(v1List.e, `the assignment of course ${courseId}, kept`),
          );
    },
  },
];
