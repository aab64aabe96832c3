// Building blocks of checks: a request to an operation judged against the contract, and the
// discoveries many checks share (an existing course, user or group), memoised per run. A discovery
// that finds nothing because the deployment departs from a seed fails the check (`Departure`); one
// that finds nothing on an empty deployment makes it incomplete.
import { type Api, type Context, evidenceOf, fail, pass } from '../context.ts';
import type { Exchange } from '../http.ts';
import { Departure, Incomplete, Skipped } from '../outcomes.ts';
import type { Check, Verdict } from '../types.ts';

export type Request = {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  headers?: Record<string, string>;
};

const classOf = (status: number) => Math.floor(status / 100);

/**
 * Judges an answer: one of the expected statuses, and valid against the contract. Where the contract
 * marks an expected status as the kit's choice (`x-assumed`, a success code "not shown"), another of
 * the same class passes the MUST and is noted as a departure from the kit's choice; so is a
 * difference on an assumed part of the body.
 */
export function judge(api: Api, operationId: string, e: Exchange, expected: number[]): Verdict {
  const { method, path } = api.operation(operationId);
  const want = `${expected.join(' or ')} ${method} ${path}, valid against openapi/${api.name}`;
  const assumed: string[] = [];
  let as = e.status;
  if (!expected.includes(e.status)) {
    const alt =
      e.status < 500
        ? expected.find((x) => api.assumedStatus(operationId, x) && classOf(x) === classOf(e.status))
        : undefined;
    if (alt === undefined)
      return fail(`answered ${e.status}, expected ${expected.join(' or ')}`, evidenceOf(e, want));
    assumed.push(`${method} ${path} answered ${e.status} where the kit assumed ${alt}`);
    if (!api.response(operationId, e.status)) as = alt;
  }
  const problems = api.problems(operationId, e, as);
  if (problems.documented.length)
    return fail('the answer departs from the contract', evidenceOf(e, want, problems.documented));
  api.cover(operationId, as);
  api.noteAssumed(
    [...assumed, ...problems.assumed.map((p) => `${method} ${path}: ${p}`)],
    evidenceOf(e, want, problems.assumed),
  );
  return pass();
}

/**
 * A check that calls one operation and judges the answer against the contract: the status, the
 * content type, the body; then `verify`, if any, judges what the answer says.
 */
export function contractCheck(
  spec: Omit<Check, 'run'> & {
    api: 'v1' | 'v2';
    operationId: string;
    expect?: number[];
    request: (ctx: Context) => Promise<Request | Verdict>;
    verify?: (ctx: Context, e: Exchange) => Verdict | Promise<Verdict>;
  },
): Check {
  const { api: apiName, operationId, expect = [200], request, verify, ...check } = spec;
  return {
    ...check,
    run: async (ctx) => {
      const req = await request(ctx);
      if ('status' in req) return req;
      const api = ctx[apiName];
      const e = await api.callRaw(operationId, req);
      const verdict = judge(api, operationId, e, expect);
      return verdict.status === 'pass' && verify ? verify(ctx, e) : verdict;
    },
  };
}

/**
 * Reads a value from an answer through names only the kit assumed (most v2 payloads): when the
 * answer does not have them, the seed rule cannot be judged, and the check is incomplete.
 */
export function readAssumed<T>(e: Exchange, what: string, read: (body: never) => T | undefined): T {
  const value = e.body === undefined ? undefined : read(e.body as never);
  if (value === undefined)
    throw new Incomplete(
      `${what} cannot be read from ${e.method} ${new URL(e.url).pathname}: the answer does not use the names the kit assumed`,
    );
  return value;
}

// Discoveries through v1 (site API key).

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

// Discoveries through v2.

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

/** An id no deployment hands out, for the 404 checks. */
export const UNKNOWN_ID = 999_999_937;
