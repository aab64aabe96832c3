// v2 data rules: what the read tools' answers hold and what the write tools' options do (seed 000,
// "Read tools", "Write tools"). Seed 000 states the CONTENT of the answers ("name, e-mail, role,
// group memberships, status"; "courses with id, name, status, annotation"; "certificates with issue
// dates and, when set, expiry dates") while their field names are the kit's choice ("result payload
// fields of read tools: not shown"). So these checks judge the content by value and name no field:
// a fixture made through v1 (a user in a group, a course v1 lists) is looked for in the v2 answer by
// its values, and a date given to a write by its value (Unix seconds, milliseconds or an ISO date,
// wherever it sits). A deployment lacking the content fails a MUST; one naming its fields otherwise
// passes. Only what cannot be found by value (a user's v2 id, a count, a certificate's course, a
// course's certificate validity) is read through the kit's names, which makes the check
// incomplete, not failed, when the deployment names them otherwise.
//
// The options of the write tools seed 000 gives without a wire name (`<deadline>`, `<start>`) are
// sent under the kit's assumed names (`deadlineAt`, `startAt`): a deployment refusing them (400 or
// 422) makes the check incomplete, since it may call them otherwise; one accepting them and not
// honouring them fails, since accepting an option means honouring it.
//
// Fixtures are made through v1 (a site API key), named after the run and neutralised afterwards:
// users banned, groups renamed. Assignments of real courses to the run's users stay, as in v2-writes.
import { type Context, evidenceOf, fail, pass } from '../context.ts';
import type { Exchange } from '../http.ts';
import { Departure, Incomplete } from '../outcomes.ts';
import type { Check, Verdict } from '../types.ts';
import { judge, keyHeaders, readAssumed } from './helpers.ts';

const reads = { mcpScope: 'read' as const, apiKey: true };
/** v1 fixtures (users, groups, assignments) and v2 reads. */
const v1Writes = { mcpScope: 'read' as const, apiKey: true, writes: true };
/** v2 writes. */
const v2Writes = { mcpScope: 'write' as const, apiKey: true, writes: true };
const area = (a: string) => `v2.${a}`;

const DAY = 86_400;
const TWENTY_YEARS = 20 * 365.25 * DAY;
const PASSWORD = 'Conformance-123';
/** The role of the users the run creates: `learner` unless the configuration names another. */
const roleOf = (ctx: Context) => ctx.config.roleAlias ?? 'learner';

// --- Reading answers by value ---

type Leaf = { path: string[]; value: unknown };

/** Every scalar of a JSON value (null included) with its path. */
function leaves(v: unknown, path: string[] = []): Leaf[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, [...path, String(i)]));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leaves(x, [...path, k]));
  return [{ path, value: v }];
}

/** Every object inside a JSON value, itself included. */
function objects(v: unknown): Record<string, unknown>[] {
  if (Array.isArray(v)) return v.flatMap(objects);
  if (v && typeof v === 'object') return [v as Record<string, unknown>, ...Object.values(v).flatMap(objects)];
  return [];
}

const valueAt = (v: unknown, path: string[]) =>
  path.reduce<unknown>(
    (n, k) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[k] : undefined),
    v,
  );

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The deployment's clock when it answered: its Date header, else this machine's. */
function clockOf(e: Exchange): number {
  const ms = Date.parse(e.headers.get('date') ?? '');
  return Math.floor((Number.isNaN(ms) ? Date.now() : ms) / 1000);
}

/**
 * A value as a point in time, in Unix seconds: a number of seconds or of milliseconds within 20
 * years of the deployment's clock, or an ISO date (`YYYY-MM-DD…`). Seed 000 does not say how v2
 * writes times (the kit chose seconds), so any of these carries a date.
 */
function secondsOf(v: unknown, clock: number): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) {
    if (Math.abs(v - clock) <= TWENTY_YEARS) return v;
    if (Math.abs(v / 1000 - clock) <= TWENTY_YEARS) return v / 1000;
    return undefined;
  }
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? undefined : ms / 1000;
  }
  return undefined;
}

const datesIn = (v: unknown, clock: number) =>
  leaves(v).flatMap((l) => {
    const s = secondsOf(l.value, clock);
    return s === undefined ? [] : [s];
  });

/** The paths at which a JSON value holds this time, in whatever form. */
const pathsOfTime = (v: unknown, t: number, clock: number) =>
  leaves(v)
    .filter((l) => {
      const s = secondsOf(l.value, clock);
      return s !== undefined && Math.abs(s - t) < 1;
    })
    .map((l) => l.path);

/** Whether a JSON value holds this text as one of its values (e-mails and roles compared caseless). */
const holdsText = (v: unknown, text: string, caseless = false) =>
  leaves(v).some(
    (l) =>
      typeof l.value === 'string' &&
      (caseless ? l.value.toLowerCase() === text.toLowerCase() : l.value === text),
  );

/** A whole UTC day: a date given as YYYY-MM-DD names the same instant. */
const midnightAfter = (t: number) => Math.ceil(t / DAY) * DAY;
const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The entries of a list answer: the answer itself when it is an array, else its first array. The
 * kit wraps lists (`{assignments: […], totalCount}`); seed 000 shows no wrapping, so none is named.
 */
function entriesIn(e: Exchange, what: string): unknown[] {
  const b = e.body;
  const list = Array.isArray(b)
    ? b
    : b && typeof b === 'object'
      ? Object.values(b).find((v): v is unknown[] => Array.isArray(v))
      : undefined;
  if (!list)
    throw new Incomplete(
      `${what} cannot be read from ${e.method} ${new URL(e.url).pathname}: the answer holds no list`,
    );
  return list;
}

/** A failed judgement of a step that prepares a check: the check fails with it. */
function ensure(verdict: Verdict): void {
  if (verdict.status !== 'pass') throw new Departure(verdict.reason ?? 'a request failed', verdict.evidence);
}

// --- Fixtures, made through v1 ---

interface V1User {
  apiId: string;
  name: string;
  email: string;
  role: string;
}

/**
 * A user made for the run through v1 (banned afterwards), in the given groups. Named `…-data-<tag>`:
 * the other check files make users of the run too, and an e-mail is unique across the site.
 */
async function newUser(ctx: Context, tag: string, groups: number[] = []): Promise<V1User> {
  const email = `${ctx.runId}-data-${tag}@example.invalid`;
  const name = `lmskit data ${tag} ${ctx.runId}`;
  const role = roleOf(ctx);
  const e = await ctx.v1.call('createUser', {
    headers: ctx.v1Headers(),
    body: { name, email, password: PASSWORD, roleAlias: role, ...(groups.length ? { groups } : {}) },
  });
  const apiId = (e.body as { id?: string } | undefined)?.id;
  if (e.status >= 300 || !apiId)
    throw new Departure(
      `a user could not be created through v1 (role alias "${role}"; set --role-alias if the deployment names its roles otherwise)`,
      evidenceOf(e, '201 with the user'),
    );
  ctx.cleanup(() => ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id: apiId } }));
  return { apiId, name, email, role };
}

/** A group made for the run through v1 (renamed afterwards). */
async function newGroup(ctx: Context, tag: string) {
  const name = `lmskit ${ctx.runId} data ${tag}`;
  const e = await ctx.v1.call('createGroup', { headers: ctx.v1Headers(), body: { name } });
  const id = (e.body as { id?: number } | undefined)?.id;
  if (e.status >= 300 || id === undefined)
    throw new Departure('a group could not be created through v1', evidenceOf(e, '201 with the group'));
  ctx.cleanup(() =>
    ctx.v1.call('updateGroup', {
      params: { groupId: id },
      headers: ctx.v1Headers(),
      body: { name: `lmskit removed ${ctx.runId}` },
    }),
  );
  return { id, name, clock: clockOf(e) };
}

/** The run's group for the read checks; each check adds its own member. */
const dataGroup = (ctx: Context) => ctx.once('v2data.group', () => newGroup(ctx, 'members'));

/**
 * The v2 id of a user made through v1, found by e-mail (seed 000, find_user: "name or e-mail
 * substring"). The user's entry is the one holding the e-mail, by value, or the only one found; a
 * search that finds nobody is a departure.
 */
async function v2IdOf(ctx: Context, email: string): Promise<number> {
  const e = await ctx.v2.call('searchUsers', {
    query: { query: email, limit: 5 },
    headers: keyHeaders(ctx, 'searchUsers'),
  });
  ensure(judge(ctx.v2, 'searchUsers', e, [200]));
  const users = entriesIn(e, 'the users found');
  if (!users.length)
    throw new Departure(
      `find_user does not find the user ${email}, made through v1, by their e-mail`,
      evidenceOf(e, `the user ${email} among the results`),
    );
  const user = users.find((u) => holdsText(u, email, true)) ?? (users.length === 1 ? users[0] : undefined);
  const id = (user as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'number')
    throw new Incomplete(
      `the id of the user ${email} cannot be read from GET /api/v2/users: the answer does not use the names the kit assumed`,
    );
  return id;
}

type V1Course = { id: number; name: string; annotation?: string; isDraft?: boolean };

/** The first page of v1's courses (seed 001: id, name, annotation, isDraft). */
const v1Courses = (ctx: Context) =>
  ctx.once('v2data.v1Courses', async () => {
    const e = await ctx.v1.call('listCourses', { headers: ctx.v1Headers() });
    ensure(judge(ctx.v1, 'listCourses', e, [200]));
    const courses = (e.body as { courses?: V1Course[] }).courses ?? [];
    if (!courses.length) throw new Incomplete('the deployment has no course (GET /courses lists none)');
    return courses;
  });

/**
 * The course the write checks assign: the first published one v1 lists. Its v1 id is its v2 id
 * (seed 001 and seed 000 both give a course an integer id; one platform serves both APIs), taken
 * as it is rather than through find_course, whose field names are the kit's choice.
 */
const courseToAssign = (ctx: Context) =>
  ctx.once('v2data.course', async () => {
    const courses = await v1Courses(ctx);
    return courses.find((c) => c.isDraft === false) ?? (courses[0] as V1Course);
  });

/** A draft course of v1, from the first ten pages. */
const v1Draft = (ctx: Context) =>
  ctx.once('v2data.v1Draft', async () => {
    for (let offset = 0; offset < 200; offset += 20) {
      const e = await ctx.v1.call('listCourses', { query: { offset }, headers: ctx.v1Headers() });
      ensure(judge(ctx.v1, 'listCourses', e, [200]));
      const courses = (e.body as { courses?: V1Course[] }).courses ?? [];
      const draft = courses.find((c) => c.isDraft === true);
      if (draft) return draft;
      if (courses.length < 20) break;
    }
    throw new Incomplete('the deployment has no draft course among its first 200 (GET /courses)');
  });

/**
 * A course's entry in find_course's answer, found by value: an object holding the course's name;
 * of those, the one that also holds its id.
 */
async function courseEntry(ctx: Context, course: V1Course) {
  const query = course.name.slice(0, 24);
  const e = await ctx.v2.call('searchCourses', {
    query: { query, limit: 50 },
    headers: keyHeaders(ctx, 'searchCourses'),
  });
  ensure(judge(ctx.v2, 'searchCourses', e, [200]));
  const named = objects(e.body).filter((o) => Object.values(o).includes(course.name));
  const entry = named.find((o) => Object.values(o).some((v) => v === course.id || v === String(course.id)));
  return { e, query, named, entry };
}

// --- assign_training, read back ---

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

const userAssignments = (ctx: Context, userId: number) =>
  ctx.v2.call('listUserAssignments', { params: { userId }, headers: keyHeaders(ctx, 'listUserAssignments') });

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
    const user = await newUser(ctx, 'plain');
    const userId = await v2IdOf(ctx, user.email);
    const courseId = (await courseToAssign(ctx)).id;
    const e = await assignUser(ctx, courseId, { userId });
    ensure(judge(ctx.v2, 'assignUserToCourse', e, [200]));
    const list = await userAssignments(ctx, userId);
    ensure(judge(ctx.v2, 'listUserAssignments', list, [200]));
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
  const user = await newUser(ctx, tag);
  const userId = await v2IdOf(ctx, user.email);
  const e = await assignUser(
    ctx,
    plain.courseId,
    option === 'deadline' ? { userId, deadlineAt: time } : { userId, startAt: time },
  );
  refusedOption(e, option, name);
  ensure(judge(ctx.v2, 'assignUserToCourse', e, [200]));
  const list = await userAssignments(ctx, userId);
  ensure(judge(ctx.v2, 'listUserAssignments', list, [200]));
  return { plain, time, list, paths: pathsOfTime(list.body, time, clockOf(list)) };
}

export const v2DataChecks: Check[] = [
  {
    id: 'v2.users.detail.content',
    area: area('users'),
    level: 'MUST',
    rules: ['000/get-user'],
    title:
      'get_user answers the name, e-mail, role and group of a user made through v1 in a group, and a status that changes when the user is banned',
    needs: v1Writes,
    run: async (ctx) => {
      const group = await dataGroup(ctx);
      const user = await newUser(ctx, 'detail', [group.id]);
      const userId = await v2IdOf(ctx, user.email);
      const read = async () => {
        const e = await ctx.v2.call('getUser', { params: { userId }, headers: keyHeaders(ctx, 'getUser') });
        return { e, verdict: judge(ctx.v2, 'getUser', e, [200]) };
      };
      const before = await read();
      if (before.verdict.status !== 'pass') return before.verdict;
      const b = before.e.body;
      // A membership by value: the group's name anywhere, or its id inside a nested value (the
      // top-level id is the user's own).
      const member =
        holdsText(b, group.name) ||
        leaves(b).some((l) => l.path.length > 1 && (l.value === group.id || l.value === String(group.id)));
      const missing = [
        holdsText(b, user.name) ? '' : `the name "${user.name}"`,
        holdsText(b, user.email, true) ? '' : `the e-mail ${user.email}`,
        holdsText(b, user.role, true) ? '' : `the role ${user.role}`,
        member ? '' : `the membership of group ${group.id} "${group.name}"`,
      ].filter(Boolean);
      if (missing.length)
        return fail(
          `get_user answers user ${userId}, made through v1 in group ${group.id}, without ${missing.join(', ')}`,
          evidenceOf(
            before.e,
            `name "${user.name}", e-mail, role ${user.role}, group ${group.id} "${group.name}", status`,
          ),
        );
      // The status by value: banning the user (v1, seed 001: "user cannot log in") must show.
      const ban = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id: user.apiId } });
      if (ban.status >= 300)
        throw new Departure(
          'the fixture user could not be banned through v1',
          evidenceOf(ban, 'the user, banned'),
        );
      const after = await read();
      if (after.verdict.status !== 'pass') return after.verdict;
      return same(before.e.body, after.e.body)
        ? fail(
            `get_user answers user ${userId} the same before and after the user was banned: it shows no status`,
            evidenceOf(after.e, 'a status that tells the banned user from the active one'),
          )
        : pass();
    },
  },
  {
    id: 'v2.courses.search.fields',
    area: area('courses'),
    level: 'MUST',
    rules: ['000/find-course.fields'],
    title: 'find_course answers a course with the id, name and annotation v1 gives for it',
    needs: reads,
    run: async (ctx) => {
      const course = (await v1Courses(ctx)).find((c) => c.annotation);
      if (!course) throw new Incomplete('no course of GET /openapi/v1/courses has an annotation to look for');
      const { e, query, named, entry } = await courseEntry(ctx, course);
      const want = `course ${course.id} "${course.name}" with its annotation "${course.annotation}"`;
      if (!named.length)
        return fail(
          `find_course does not answer "${course.name}" (v1 course ${course.id}) by "${query}"`,
          evidenceOf(e, want),
        );
      if (!entry)
        return fail(`find_course answers "${course.name}" without its id ${course.id}`, evidenceOf(e, want));
      return holdsText(entry, course.annotation as string)
        ? pass()
        : fail(`find_course answers "${course.name}" without its annotation`, evidenceOf(e, want));
    },
  },
  {
    id: 'v2.courses.search.status',
    area: area('courses'),
    level: 'MUST',
    rules: ['000/find-course.fields'],
    title: 'find_course answers a status that tells a draft course from two published ones',
    needs: reads,
    run: async (ctx) => {
      const published = (await v1Courses(ctx)).filter((c) => c.isDraft === false).slice(0, 2);
      const [p1, p2] = published;
      if (!p1 || !p2) throw new Incomplete('GET /openapi/v1/courses lists fewer than two published courses');
      const draft = await v1Draft(ctx);
      const entries: Record<string, unknown>[] = [];
      for (const course of [p1, p2]) {
        const { e, entry } = await courseEntry(ctx, course);
        if (!entry)
          return fail(
            `find_course does not answer "${course.name}" with its id ${course.id}`,
            evidenceOf(e, `course ${course.id}`),
          );
        entries.push(entry);
      }
      const found = await courseEntry(ctx, draft);
      if (!found.entry)
        throw new Incomplete(
          `find_course does not answer the draft "${draft.name}" (course ${draft.id}) to this key, so no status can be compared`,
        );
      const [a, b] = entries as [Record<string, unknown>, Record<string, unknown>];
      const d = found.entry;
      // The status by value: some field the published courses share and the draft has otherwise.
      const status = Object.keys(a).filter((k) => same(a[k], b[k]) && !same(a[k], d[k]));
      return status.length
        ? pass()
        : fail(
            `find_course answers the draft "${draft.name}" and the published "${p1.name}" and "${p2.name}" with nothing that tells their status apart`,
            evidenceOf(
              found.e,
              `a status of course ${draft.id} other than that of courses ${p1.id} and ${p2.id}`,
            ),
          );
    },
  },
  {
    id: 'v2.statistics.compliance.group',
    area: area('statistics'),
    level: 'MUST',
    rules: ['000/compliance.group'],
    title:
      "get_compliance_status with groupId counts only the group's members: a member and a non-member assigned, one counted",
    needs: v1Writes,
    run: async (ctx) => {
      const group = await dataGroup(ctx);
      const member = await newUser(ctx, 'compliance-in', [group.id]);
      const outsider = await newUser(ctx, 'compliance-out');
      const courseId = (await courseToAssign(ctx)).id;
      const assigned = await ctx.v1.call('assignCourse', {
        params: { courseId },
        headers: ctx.v1Headers(),
        body: { users: [member.apiId, outsider.apiId] },
      });
      if (assigned.status >= 300)
        throw new Departure(
          `the run's users could not be assigned course ${courseId} through v1`,
          evidenceOf(assigned, 'the users assigned'),
        );
      const headers = keyHeaders(ctx, 'getCourseUserStatistics');
      const all = await ctx.v2.call('getCourseUserStatistics', { params: { courseId }, headers });
      const allVerdict = judge(ctx.v2, 'getCourseUserStatistics', all, [200]);
      if (allVerdict.status !== 'pass') return allVerdict;
      const theirs = await ctx.v2.call('getCourseUserStatistics', {
        params: { courseId },
        query: { groupId: group.id },
        headers,
      });
      const verdict = judge(ctx.v2, 'getCourseUserStatistics', theirs, [200]);
      if (verdict.status !== 'pass') return verdict;
      const want = `the breakdown of group ${group.id}: its one assigned member ${member.email}, not ${outsider.email}`;
      if (same(all.body, theirs.body))
        return fail(
          `with groupId=${group.id} the breakdown of course ${courseId} is the same as without it`,
          evidenceOf(theirs, want),
        );
      if (holdsText(theirs.body, outsider.email, true))
        return fail(
          `with groupId=${group.id} the breakdown lists ${outsider.email}, who is not a member of the group`,
          evidenceOf(theirs, want),
        );
      const count = (e: Exchange) =>
        readAssumed(e, 'the number of assigned users', (b: { assigned?: number }) => b.assigned);
      const [everyone, members] = [count(all), count(theirs)];
      return members === 1 && everyone >= 2
        ? pass()
        : fail(
            `${members} assigned with groupId=${group.id} (one member, assigned) and ${everyone} without it (at least that member and a non-member)`,
            evidenceOf(theirs, want),
          );
    },
  },
  {
    id: 'v2.users.certificates.expiry',
    area: area('users'),
    level: 'MUST',
    rules: ['000/certificates.expiry'],
    title: 'a certificate of a course whose certificates expire is answered with an expiry date',
    needs: reads,
    run: async (ctx) => {
      // Whose certificates to read: the leaders first (those who finish courses), when a key may
      // read the leaderboard and it is named as the kit assumed, then the users find_user lists.
      const leaderKey = ctx.keyFor('getLeaderboard');
      const leaders = leaderKey
        ? await ctx.v2.call('getLeaderboard', {
            query: { limit: 10 },
            headers: { 'x-mcp-key': leaderKey.key },
          })
        : undefined;
      const leaderIds =
        leaders && leaders.status === 200
          ? ((leaders.body as { leaders?: { user?: { id?: number } }[] })?.leaders ?? []).flatMap((l) =>
              typeof l?.user?.id === 'number' ? [l.user.id] : [],
            )
          : [];
      const found = await ctx.v2.call('searchUsers', {
        query: { query: '@', limit: 50 },
        headers: keyHeaders(ctx, 'searchUsers'),
      });
      ensure(judge(ctx.v2, 'searchUsers', found, [200]));
      const listed = readAssumed(found, 'the users found', (b: { users?: { id: number }[] }) => b.users);
      const users = [...new Set([...leaderIds, ...listed.map((u) => u.id)])]
        .slice(0, 20)
        .map((id) => ({ id }));
      // Whether a course's certificates expire, and after how many days: the course's settings, as
      // the kit names them (the seed says "settings" only).
      const validity = new Map<number, number | null>();
      const validDays = async (courseId: number) => {
        if (!validity.has(courseId)) {
          const e = await ctx.v2.call('getCourse', {
            params: { courseId },
            headers: keyHeaders(ctx, 'getCourse'),
          });
          ensure(judge(ctx.v2, 'getCourse', e, [200]));
          const days = readAssumed(
            e,
            "how long the course's certificates stay valid",
            (b: { settings?: { certificateValidDays?: number | null } }) => b.settings?.certificateValidDays,
          );
          validity.set(courseId, days);
        }
        return validity.get(courseId) ?? null;
      };
      for (const user of users) {
        const e = await ctx.v2.call('listUserCertificates', {
          params: { userId: user.id },
          headers: keyHeaders(ctx, 'listUserCertificates'),
        });
        const verdict = judge(ctx.v2, 'listUserCertificates', e, [200]);
        if (verdict.status !== 'pass') return verdict;
        const clock = clockOf(e);
        const expiring: { courseId: number; days: number; dates: number[] }[] = [];
        for (const certificate of entriesIn(e, "the user's certificates")) {
          const courseId = (certificate as { courseId?: number } | null)?.courseId;
          if (typeof courseId !== 'number')
            throw new Incomplete(
              `the course of a certificate cannot be read from GET /api/v2/users/${user.id}/certificates: the answer does not use the names the kit assumed`,
            );
          const days = await validDays(courseId);
          if (days) expiring.push({ courseId, days, dates: datesIn(certificate, clock) });
        }
        if (!expiring.length) continue;
        // By value: besides its issue date, the certificate holds a date about that many days later.
        const bare = expiring.filter(
          ({ days, dates }) => !dates.some((a) => dates.some((b) => Math.abs(b - a - days * DAY) <= 2 * DAY)),
        );
        return bare.length
          ? fail(
              `user ${user.id}'s certificate of course ${bare[0]?.courseId}, whose certificates stay valid ${bare[0]?.days} days, is answered without an expiry date`,
              evidenceOf(e, 'each certificate with its issue date and, when set, its expiry date'),
            )
          : pass();
      }
      throw new Incomplete(
        `none of ${users.length} users (the leaders, then those find_user lists) holds a certificate of a course whose certificates expire`,
      );
    },
  },
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
      const group = await newGroup(ctx, 'bulk');
      await newUser(ctx, 'bulk-member', [group.id]);
      const listed = await v1Courses(ctx);
      const published = listed.filter((c) => c.isDraft === false);
      const courses = (published.length ? published : listed).slice(0, 2).map((c) => c.id);
      const deadline = midnightAfter(group.clock + 60 * DAY);
      // bulk_assign: one POST per course, the deadline applied to all (the kit's name `deadlineAt`).
      for (const courseId of courses) {
        const e = await ctx.v2.call('assignCourseToGroups', {
          params: { courseId },
          headers: keyHeaders(ctx, 'assignCourseToGroups'),
          body: { groups: [group.id], deadlineAt: deadline },
        });
        refusedOption(e, 'deadline', 'deadlineAt');
        const verdict = judge(ctx.v2, 'assignCourseToGroups', e, [200]);
        if (verdict.status !== 'pass') return verdict;
      }
      const list = await ctx.v2.call('listGroupAssignments', {
        params: { groupId: group.id },
        headers: keyHeaders(ctx, 'listGroupAssignments'),
      });
      const verdict = judge(ctx.v2, 'listGroupAssignments', list, [200]);
      if (verdict.status !== 'pass') return verdict;
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
      const user = await newUser(ctx, 'history');
      const userId = await v2IdOf(ctx, user.email);
      const course = await courseToAssign(ctx);
      const courseId = course.id;
      const assigned = await assignUser(ctx, courseId, { userId });
      const assignVerdict = judge(ctx.v2, 'assignUserToCourse', assigned, [200]);
      if (assignVerdict.status !== 'pass') return assignVerdict;
      const before = await userAssignments(ctx, userId);
      const read = judge(ctx.v2, 'listUserAssignments', before, [200]);
      if (read.status !== 'pass') return read;
      const n = entriesIn(before, "the user's assignments").length;
      if (n < 1)
        return fail(
          `the assignment of course ${courseId} just made is not in the user's list`,
          evidenceOf(before, 'one assignment'),
        );
      const ban = await ctx.v2.call('banUser', { headers: keyHeaders(ctx, 'banUser'), body: { userId } });
      const banned = judge(ctx.v2, 'banUser', ban, [200]);
      if (banned.status !== 'pass') return banned;
      const after = await userAssignments(ctx, userId);
      const readAfter = judge(ctx.v2, 'listUserAssignments', after, [200]);
      if (readAfter.status !== 'pass') return readAfter;
      const m = entriesIn(after, "the user's assignments").length;
      if (m < n || (holdsText(before.body, course.name) && !holdsText(after.body, course.name)))
        return fail(
          `the user had ${n} assignment(s) before ban_user and ${m} after`,
          evidenceOf(after, `the assignment of course ${courseId}, kept`),
        );
      // v1 (seed 001: GET /users/{userId}/assignments, with the course) must keep it too.
      const v1List = await ctx.v1.call('listUserAssignments', {
        params: { userId: user.apiId },
        headers: ctx.v1Headers(),
      });
      const v1Read = judge(ctx.v1, 'listUserAssignments', v1List, [200]);
      if (v1Read.status !== 'pass') return v1Read;
      const kept = (v1List.body as { assignments?: { course?: { id?: number } }[] }).assignments ?? [];
      return kept.some((a) => a.course?.id === courseId)
        ? pass()
        : fail(
            `after ban_user, GET /openapi/v1/users/${user.apiId}/assignments no longer lists course ${courseId}`,
            evidenceOf(v1List, `the assignment of course ${courseId}, kept`),
          );
    },
  },
];
