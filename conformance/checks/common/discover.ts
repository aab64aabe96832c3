// Discoveries many checks share: an existing course, user or group of the deployment, memoised per
// run, and the key to ask with. A discovery that finds nothing because the deployment departs from a
// seed fails the check (`Departure`); one that finds nothing on an empty deployment makes it
// incomplete.
import { type Context, evidenceOf } from '../../context.ts';
import { Departure, Incomplete, Skipped } from '../../outcomes.ts';
import { judge, mustPass, readAssumed } from './judge.ts';

/** An id no deployment hands out, for the 404 checks and the harmless requests. */
export const UNKNOWN_ID = 999_999_937;

// --- Through v1 (the site API key) ---

/** A course id of the deployment, from the first page of GET /courses. */
export const v1CourseId = (ctx: Context) =>
  ctx.once('v1.courseId', async () => {
    const e = await ctx.v1.call('listCourses', { headers: ctx.v1Headers() });
    const id = (e.body as { courses?: { id: number }[] })?.courses?.[0]?.id;
    if (id === undefined) throw new Incomplete('the deployment has no course (GET /courses lists none)');
    return id;
  });

/** A user API id, from the statistics' lists (v1 has no user listing). */
export const v1UserId = (ctx: Context) =>
  ctx.once('v1.userId', async () => {
    const e = await ctx.v1.call('getStatistics', { headers: ctx.v1Headers() });
    const b = e.body as {
      usersWithoutActivity?: { id: string }[];
      usersWithoutResults?: { id: string }[];
      leaders?: { user: { id: string } }[];
    };
    const id =
      b?.leaders?.[0]?.user.id ?? b?.usersWithoutResults?.[0]?.id ?? b?.usersWithoutActivity?.[0]?.id;
    if (id === undefined) throw new Incomplete('no user found in GET /statistics to read assignments of');
    return id;
  });

export type V1Course = { id: number; name: string; annotation?: string; isDraft?: boolean };

/**
 * The first page of v1's courses with what seed 001 gives of each (id, name, annotation, isDraft),
 * the listing judged against the contract: what the v2 data checks look for in v2's answers.
 */
export const v1Courses = (ctx: Context) =>
  ctx.once('v2data.v1Courses', async () => {
    const e = await ctx.v1.call('listCourses', { headers: ctx.v1Headers() });
    mustPass(judge(ctx.v1, 'listCourses', e, [200]));
    const courses = (e.body as { courses?: V1Course[] }).courses ?? [];
    if (!courses.length) throw new Incomplete('the deployment has no course (GET /courses lists none)');
    return courses;
  });

/**
 * The course the v2 data checks assign: the first published one v1 lists. Its v1 id is its v2 id
 * (seed 001 and seed 000 both give a course an integer id; one platform serves both APIs), taken
 * as it is rather than through find_course, whose field names are the kit's choice.
 */
export const courseToAssign = (ctx: Context) =>
  ctx.once('v2data.course', async () => {
    const courses = await v1Courses(ctx);
    return courses.find((c) => c.isDraft === false) ?? (courses[0] as V1Course);
  });

/** A draft course of v1, from the first ten pages. */
export const v1Draft = (ctx: Context) =>
  ctx.once('v2data.v1Draft', async () => {
    for (let offset = 0; offset < 200; offset += 20) {
      const e = await ctx.v1.call('listCourses', { query: { offset }, headers: ctx.v1Headers() });
      mustPass(judge(ctx.v1, 'listCourses', e, [200]));
      const courses = (e.body as { courses?: V1Course[] }).courses ?? [];
      const draft = courses.find((c) => c.isDraft === true);
      if (draft) return draft;
      if (courses.length < 20) break;
    }
    throw new Incomplete('the deployment has no draft course among its first 200 (GET /courses)');
  });

// --- Through v2 (an MCP key) ---

/** Headers with a key offered a tool that calls this operation; skipped when no key given is. */
export function keyHeaders(ctx: Context, operationId: string): Record<string, string> {
  const key = ctx.keyFor(operationId);
  if (!key)
    throw new Skipped(
      `no MCP key given is offered a tool that calls ${operationId} (--mcp-key of a user with the permission, with the scope)`,
    );
  return { 'x-mcp-key': key.key };
}

/** The user id of a key's owner (capabilities `user.id`): a user that surely exists. */
export const ownerId = (ctx: Context, headers: Record<string, string>) =>
  ctx.keys.find((k) => k.key === headers['x-mcp-key'])?.user.id ?? ctx.keys[0]?.user.id ?? 0;

/**
 * A course id found by `find_course`. With v1 at hand, a course listed there must be found by a part
 * of its name (seed 000, find_course: "name substring"; both APIs serve one platform); without it,
 * the first course any of a few letters finds.
 */
export const v2CourseId = (ctx: Context) =>
  ctx.once('v2.courseId', async () => {
    const headers = keyHeaders(ctx, 'searchCourses');
    const search = (query: string) => ctx.v2.call('searchCourses', { query: { query, limit: 50 }, headers });
    if (ctx.config.apiKey) {
      const list = await ctx.v1.call('listCourses', { headers: ctx.v1Headers() });
      const course = (list.body as { courses?: { id: number; name: string }[] })?.courses?.[0];
      if (course) {
        const query = course.name.slice(0, 24);
        const e = await search(query);
        const courses = readAssumed(e, 'the courses found', (b: { courses?: { id: number }[] }) => b.courses);
        if (!courses.some((c) => c.id === course.id))
          throw new Departure(
            `find_course does not find "${course.name}" (course ${course.id} of GET /openapi/v1/courses) by "${query}"`,
            evidenceOf(e, `course ${course.id} among the results`),
          );
        return course.id;
      }
    }
    for (const query of ['e', 'a', 'o', 'i']) {
      const e = await search(query);
      const id = readAssumed(e, 'the courses found', (b: { courses?: { id: number }[] }) => b.courses)[0]?.id;
      if (id !== undefined) return id;
    }
    throw new Incomplete('find_course finds no course for e, a, o or i: the deployment seems to have none');
  });

/** A group id, from the group memberships of users found by `find_user`. */
export const v2GroupId = (ctx: Context) =>
  ctx.once('v2.groupId', async () => {
    const headers = keyHeaders(ctx, 'getUser');
    const e = await ctx.v2.call('searchUsers', { query: { query: '@', limit: 50 }, headers });
    const users = readAssumed(e, 'the users found', (b: { users?: { id: number }[] }) => b.users);
    for (const u of users.slice(0, 20)) {
      const d = await ctx.v2.call('getUser', { params: { userId: u.id }, headers });
      const group = (d.body as { groups?: { id: number }[] })?.groups?.[0]?.id;
      if (group !== undefined) return group;
    }
    throw new Incomplete('no group found in the memberships of the users find_user lists');
  });

/**
 * A user found through v2 by e-mail (seed 000, find_user: "name or e-mail substring"), with their
 * detail (get_user): the read-back of a write. Not finding a user that exists is a departure.
 */
export async function v2User(ctx: Context, email: string) {
  const headers = keyHeaders(ctx, 'searchUsers');
  const found = await ctx.v2.call('searchUsers', { query: { query: email, limit: 5 }, headers });
  const users = readAssumed(
    found,
    'the users found',
    (b: { users?: { id: number; email: string }[] }) => b.users,
  );
  const id = users.find((u) => u.email === email)?.id;
  if (id === undefined)
    throw new Departure(
      `find_user does not find the user ${email} by their e-mail`,
      evidenceOf(found, `the user ${email} among the results`),
    );
  const detail = await ctx.v2.call('getUser', {
    params: { userId: id },
    headers: keyHeaders(ctx, 'getUser'),
  });
  const status = readAssumed(detail, "the user's status", (b: { status?: string }) => b.status);
  return { id, detail, status };
}

/** A user's detail through get_user, judged, and their status (its field name the kit's choice). */
export async function userStatus(ctx: Context, userId: number) {
  const e = await ctx.v2.call('getUser', { params: { userId }, headers: keyHeaders(ctx, 'getUser') });
  mustPass(judge(ctx.v2, 'getUser', e, [200]));
  return { e, status: readAssumed(e, "the user's status", (b: { status?: string }) => b.status) };
}

/** The course ids and deadlines of a user's or a group's assignments through v2, judged (names the kit assumed). */
export async function assignmentsOf(ctx: Context, target: { userId: number } | { groupId: number }) {
  const e =
    'userId' in target
      ? await ctx.v2.call('listUserAssignments', {
          params: { userId: target.userId },
          headers: keyHeaders(ctx, 'listUserAssignments'),
        })
      : await ctx.v2.call('listGroupAssignments', {
          params: { groupId: target.groupId },
          headers: keyHeaders(ctx, 'listGroupAssignments'),
        });
  mustPass(judge(ctx.v2, 'userId' in target ? 'listUserAssignments' : 'listGroupAssignments', e, [200]));
  const rows = readAssumed(
    e,
    'the assignments',
    (b: { assignments?: { courseId: number; deadlineAt?: number | null }[] }) => b.assignments,
  );
  return { e, rows, courses: [...new Set(rows.map((r) => r.courseId))].sort((a, b) => a - b) };
}
