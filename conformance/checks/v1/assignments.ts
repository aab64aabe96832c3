// v1 assignments (seed 001, "Endpoints > Courses and assignments", "Resources > Assignment"): an
// assignment made lists the user in the user's and the course's assignments, with the assignAt
// (when it starts) and the deadlineAt it was given, its timestamps as integers, and reads the same
// in both lists; a course assigned to a group reaches the group; only the users and groups assigned
// successfully are listed in the answer. Runs with --allow-writes (lists-agree reads only).
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Departure, Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { list, type Obj, obj, show } from '../common/body.ts';
import { UNKNOWN_ID, v1CourseId } from '../common/discover.ts';
import { createdOrDeparture, createGroup, createUser, dayFromNow, withUser } from '../common/fixtures.ts';
import { judge, mustPass } from '../common/judge.ts';
import { groupStatistics } from './groups.ts';

const needs = { apiKey: true, writes: true };

/** A user's assignments (GET /users/{userId}/assignments), judged, and the one of a course. */
export async function userAssignments(ctx: Context, userId: string) {
  const e = await ctx.v1.call('listUserAssignments', { params: { userId }, headers: ctx.v1Headers() });
  mustPass(judge(ctx.v1, 'listUserAssignments', e, [200]));
  const assignments = list(obj(e.body).assignments);
  const ofCourse = (courseId: number) => assignments.find((a) => obj(a.course).id === courseId);
  return { e, assignments, ofCourse };
}

/** A course's assignments (GET /courses/{courseId}/assignments/users), judged. */
export async function courseAssignments(ctx: Context, courseId: number) {
  const e = await ctx.v1.call('listCourseAssignments', { params: { courseId }, headers: ctx.v1Headers() });
  mustPass(judge(ctx.v1, 'listCourseAssignments', e, [200]));
  const body = obj(e.body);
  return { e, totalCount: body.totalCount as number, assignments: list(body.assignments) };
}

const STAMPS = ['assignedAt', 'startedAt', 'deadlineAt', 'finishedAt'] as const;

/** The fields of one assignment both of its lists show (seed 001, Assignment). */
const SHARED = [
  'progressValue',
  'resultValue',
  'isCourseStarted',
  'isCourseFinished',
  'isExpired',
  ...STAMPS,
] as const;

/** A user assigned a course with `assignAt` and `deadlineAt`, once per run. */
const timed = (ctx: Context) =>
  ctx.once('v1data.timed', async () => {
    const courseId = await v1CourseId(ctx);
    const id = createdOrDeparture(ctx, await createUser(ctx, 'timed'));
    const assignAt = dayFromNow(7);
    const deadlineAt = dayFromNow(37);
    const e = await ctx.v1.call('assignCourse', {
      params: { courseId },
      headers: ctx.v1Headers(),
      body: { users: [id], assignAt, deadlineAt },
    });
    return { courseId, id, assignAt, deadlineAt, e };
  });

/** The timed assignment as the user's and the course's lists show it (the course's, when listed). */
async function timedViews(ctx: Context) {
  const t = await timed(ctx);
  mustPass(judge(ctx.v1, 'assignCourse', t.e, [200]));
  const views: { where: string; a: Obj; e: Exchange }[] = [];
  const mine = await userAssignments(ctx, t.id);
  const a = mine.ofCourse(t.courseId);
  if (!a)
    throw new Departure(
      `course ${t.courseId} is not in the assignments of the user it was assigned to`,
      evidenceOf(mine.e, `an assignment of course ${t.courseId}`),
    );
  views.push({ where: "the user's list", a, e: mine.e });
  const theirs = await courseAssignments(ctx, t.courseId);
  const b = theirs.assignments.find((x) => obj(x.user).id === t.id);
  if (b) views.push({ where: "the course's list", a: b, e: theirs.e });
  else if (!(theirs.totalCount > theirs.assignments.length))
    throw new Departure(
      `user ${t.id} is not in the assignments of course ${t.courseId}`,
      evidenceOf(theirs.e, `an assignment of user ${t.id}`),
    );
  return { t, views };
}

export const v1AssignmentChecks: Check[] = [
  {
    id: 'v1.users.assign-and-list',
    area: 'v1.assignments',
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
        mustPass(judge(ctx.v1, 'assignCourse', e, [200]));
        if (!(e.body as { users?: { id: string }[] })?.users?.some((u) => u.id === id))
          return fail(
            'the answer does not list the user as assigned',
            evidenceOf(e, `users to contain ${id}`),
          );
        const mine = await userAssignments(ctx, id);
        if (!mine.ofCourse(courseId))
          return fail(
            "the course is not in the user's assignments",
            evidenceOf(mine.e, `an assignment of course ${courseId}`),
          );
        const theirs = await courseAssignments(ctx, courseId);
        return theirs.assignments.some((a) => obj(a.user).id === id) ||
          theirs.totalCount > theirs.assignments.length
          ? pass()
          : fail(
              "the user is not in the course's assignments",
              evidenceOf(theirs.e, `an assignment of user ${id}`),
            );
      }),
  },
  {
    id: 'v1.assignments.timestamps',
    area: 'v1.assignments',
    level: 'MUST',
    rules: ['001/assignments.timestamps', '001/conventions.timestamps'],
    title: 'an assignment has assignedAt, startedAt, deadlineAt and finishedAt, integer timestamps',
    needs,
    run: async (ctx) => {
      const { views } = await timedViews(ctx);
      for (const { where, a, e } of views) {
        for (const stamp of STAMPS) {
          const set = stamp === 'assignedAt' || stamp === 'deadlineAt';
          if (!(stamp in a)) {
            if (set)
              return fail(`${where}: the assignment has no ${stamp}`, evidenceOf(e, STAMPS.join(', ')));
            // Not yet started or finished: what such a field shows is not shown; the kit sends null.
            ctx.v1.noteAssumed(
              [`${where}: ${stamp} is left out while it has no value, where the kit sends null`],
              evidenceOf(e, `${stamp}: null`),
            );
            continue;
          }
          const value = a[stamp];
          if (set ? !Number.isInteger(value) : value !== null && !Number.isInteger(value))
            return fail(
              `${where}: ${stamp} is ${show(value)}, not an integer timestamp`,
              evidenceOf(e, `${stamp} in Unix seconds`),
            );
        }
      }
      return pass();
    },
  },
  {
    id: 'v1.assignments.assign-at',
    area: 'v1.assignments',
    level: 'MUST',
    rules: ['001/assignments.assign-at'],
    title: 'the assignAt given is when the assignment starts: a timestamp of the assignment in both lists',
    needs,
    run: async (ctx) => {
      const { t, views } = await timedViews(ctx);
      for (const { where, a, e } of views) {
        // Judged by value: the seed names `assignAt` in the request only; the kit shows it as assignedAt.
        const at = Object.keys(a).filter((k) => a[k] === t.assignAt);
        if (!at.length)
          return fail(
            `${where}: no timestamp of the assignment is the assignAt ${t.assignAt} it was given (${STAMPS.map((s) => `${s} ${show(a[s])}`).join(', ')})`,
            evidenceOf(e, `a timestamp ${t.assignAt}`),
          );
        if (!at.includes('assignedAt'))
          ctx.v1.noteAssumed(
            [
              `${where}: assignAt ${t.assignAt} is shown as ${at.join(', ')}, where the kit shows it as assignedAt`,
            ],
            evidenceOf(e, `assignedAt ${t.assignAt}`),
          );
      }
      return pass();
    },
  },
  {
    id: 'v1.assignments.deadline',
    area: 'v1.assignments',
    level: 'MUST',
    rules: ['001/assignments.deadline'],
    title: "the deadlineAt given is the assignment's deadlineAt in the user's and the course's list",
    needs,
    run: async (ctx) => {
      const { t, views } = await timedViews(ctx);
      const off = views.find((v) => v.a.deadlineAt !== t.deadlineAt);
      return off
        ? fail(
            `${off.where}: deadlineAt is ${show(off.a.deadlineAt)}, given ${t.deadlineAt}`,
            evidenceOf(off.e, `deadlineAt ${t.deadlineAt}`),
          )
        : pass();
    },
  },
  {
    id: 'v1.assignments.lists-agree',
    area: 'v1.assignments',
    level: 'MUST',
    rules: ['001/assignments.progress', '001/assignments.flags', '001/assignments.timestamps'],
    title: "an assignment reads the same in the course's list and in the user's list",
    needs: { apiKey: true },
    run: async (ctx) => {
      const courseId = await v1CourseId(ctx);
      const theirs = await courseAssignments(ctx, courseId);
      const { assignments } = theirs;
      if (!assignments.length) throw new Incomplete(`course ${courseId} has no assignments to compare`);
      // Those with progress first: they tell most.
      const picked = [...assignments]
        .sort((x, y) => Number(y.isCourseStarted === true) - Number(x.isCourseStarted === true))
        .slice(0, 5);
      for (const b of picked) {
        const userId = obj(b.user).id;
        if (typeof userId !== 'string') continue;
        const mine = await userAssignments(ctx, userId);
        const a = mine.ofCourse(courseId);
        if (!a)
          return fail(
            `${userId} is in the assignments of course ${courseId}, but the course is not in theirs`,
            evidenceOf(mine.e, `an assignment of course ${courseId}`),
          );
        const field = SHARED.find((k) => k in a && k in b && a[k] !== b[k]);
        if (field)
          return fail(
            `the assignment of ${userId} to course ${courseId} has ${field} ${show(b[field])} in the course's list and ${show(a[field])} in the user's`,
            evidenceOf(theirs.e, `${field} ${show(a[field])}, as GET /users/${userId}/assignments says`),
          );
      }
      return pass();
    },
  },
  {
    id: 'v1.assignments.assign-groups',
    area: 'v1.assignments',
    level: 'MUST',
    rules: ['001/assignments.assign-groups', '001/assignments.assign-response'],
    title: 'assigning a course to a group lists the group in the answer, and the group then has the course',
    needs,
    run: async (ctx) => {
      const courseId = await v1CourseId(ctx);
      const group = await createGroup(ctx, 'assigned');
      const member = createdOrDeparture(ctx, await createUser(ctx, 'grouped', { groups: [group.id] }));
      const e = await ctx.v1.call('assignCourse', {
        params: { courseId },
        headers: ctx.v1Headers(),
        body: { groups: [group.id] },
      });
      mustPass(judge(ctx.v1, 'assignCourse', e, [200]));
      const listed = list(obj(e.body).groups).find((g) => g.id === group.id);
      if (!listed || listed.name !== group.name)
        return fail(
          `the answer does not list group ${group.id} (${group.name}) as assigned`,
          evidenceOf(e, `groups with ${group.id}`),
        );
      // Read back: the group counts the course, or its member has it.
      const stats = await groupStatistics(ctx, group.id);
      if ((obj(stats.body.group).coursesCount as number) >= 1) return pass();
      return (await userAssignments(ctx, member)).ofCourse(courseId)
        ? pass()
        : fail(
            `after assigning course ${courseId} to group ${group.id}, the group counts no course and its member does not have it`,
            evidenceOf(stats.e, 'group.coursesCount 1'),
          );
    },
  },
  {
    id: 'v1.assignments.assign-only-successful',
    area: 'v1.assignments',
    level: 'MUST',
    rules: ['001/assignments.assign-only-successful', '001/assignments.assign-response'],
    title: 'assigning to a known and an unknown user and group answers 200 listing only the known ones',
    needs,
    run: async (ctx) => {
      const courseId = await v1CourseId(ctx);
      const group = await createGroup(ctx, 'partly');
      const id = createdOrDeparture(ctx, await createUser(ctx, 'partly'));
      const nobody = `nobody${ctx.runId}`;
      const e = await ctx.v1.call('assignCourse', {
        params: { courseId },
        headers: ctx.v1Headers(),
        body: { users: [id, nobody], groups: [group.id, UNKNOWN_ID] },
      });
      mustPass(judge(ctx.v1, 'assignCourse', e, [200]));
      const users = list(obj(e.body).users).map((u) => u.id);
      const groups = list(obj(e.body).groups).map((g) => g.id);
      return users.join() === id && groups.join() === String(group.id)
        ? pass()
        : fail(
            `the answer lists users ${show(users)} and groups ${show(groups)}; assigned were only ${id} and ${group.id}`,
            evidenceOf(e, `users [${id}], groups [${group.id}]`),
          );
    },
  },
];
