// Building blocks of checks: a request to an operation judged against the contract, and the
// discoveries many checks share (an existing course, user or group), memoised per run.
import { type Api, type Context, evidenceOf, fail, pass, skip } from '../context.ts';
import type { Exchange } from '../http.ts';
import type { Check, Verdict } from '../types.ts';

export type Request = {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  headers?: Record<string, string>;
};

/** Judges an answer: one of the expected statuses, and valid against the contract. */
export function judge(api: Api, operationId: string, e: Exchange, expected: number[]): Verdict {
  const want = `${expected.join(' or ')} ${api.operation(operationId).method} ${api.operation(operationId).path}, valid against openapi/${api.name}`;
  if (!expected.includes(e.status))
    return fail(`answered ${e.status}, expected ${expected.join(' or ')}`, evidenceOf(e, want));
  const problems = api.problems(operationId, e);
  if (problems.length) return fail('the answer departs from the contract', evidenceOf(e, want, problems));
  return pass();
}

/**
 * A check that calls one operation and judges the answer against the contract: the status, the
 * content type, the body. `request` may skip (no fixture found) by returning a Verdict.
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
      const e = await api.call(operationId, req);
      const verdict = judge(api, operationId, e, expect);
      return verdict.status === 'pass' && verify ? verify(ctx, e) : verdict;
    },
  };
}

// Discoveries through v1 (site API key).

/** A course id of the deployment, from the first page of GET /courses. */
export const v1CourseId = (ctx: Context) =>
  ctx.once('v1.courseId', async () => {
    const e = await ctx.v1.call('listCourses', { headers: ctx.v1Headers() });
    return (e.body as { courses?: { id: number }[] })?.courses?.[0]?.id;
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
    return b?.leaders?.[0]?.user.id ?? b?.usersWithoutResults?.[0]?.id ?? b?.usersWithoutActivity?.[0]?.id;
  });

// Discoveries through v2 (an MCP key with read scope).

export const v2UserId = (ctx: Context) =>
  ctx.once('v2.userId', async () => {
    for (const query of ['@', 'a', 'e']) {
      const e = await ctx.v2.call('searchUsers', { query: { query, limit: 5 }, headers: ctx.v2Headers() });
      const id = (e.body as { users?: { id: number }[] })?.users?.[0]?.id;
      if (id !== undefined) return id;
    }
    return ctx.key('read')?.user.id;
  });

export const v2CourseId = (ctx: Context) =>
  ctx.once('v2.courseId', async () => {
    for (const query of ['e', 'a', 'o', 'i']) {
      const e = await ctx.v2.call('searchCourses', { query: { query, limit: 5 }, headers: ctx.v2Headers() });
      const id = (e.body as { courses?: { id: number }[] })?.courses?.[0]?.id;
      if (id !== undefined) return id;
    }
    return undefined;
  });

export const v2GroupId = (ctx: Context) =>
  ctx.once('v2.groupId', async () => {
    const e = await ctx.v2.call('searchUsers', {
      query: { query: '@', limit: 50 },
      headers: ctx.v2Headers(),
    });
    for (const u of (e.body as { users?: { id: number }[] })?.users ?? []) {
      const d = await ctx.v2.call('getUser', { params: { userId: u.id }, headers: ctx.v2Headers() });
      const group = (d.body as { groups?: { id: number }[] })?.groups?.[0]?.id;
      if (group !== undefined) return group;
    }
    return undefined;
  });

export const need = <T>(value: T | undefined, what: string): T | Verdict =>
  value === undefined ? skip(`no ${what} found on the deployment`) : value;

/** An id no deployment hands out, for the 404 checks. */
export const UNKNOWN_ID = 999_999_937;
