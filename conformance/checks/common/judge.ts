// Judging an answer: against the contract (`judge`), as a check of one operation (`contractCheck`),
// through names only the kit assumed (`readAssumed`), and the refusal of a missing or wrong key
// (`judgeUnauthorized`). `mustPass` ends a check with a failed step's verdict, so that a check reads
// as its steps: call, judge, go on.
import { type Api, type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Departure, Incomplete } from '../../outcomes.ts';
import type { Check, Verdict } from '../../types.ts';

/** What a check sends to an operation: path parameters, query, a body and headers. */
export type Request = {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  headers?: Record<string, string>;
};

const classOf = (status: number) => Math.floor(status / 100);

/** An operation as a reader knows it: `GET /courses/{courseId}` (its path in its contract). */
export const describe = (api: Api, operationId: string) => {
  const { method, path } = api.operation(operationId);
  return `${method} ${path}`;
};

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
 * A step of a check that must pass for the check to go on: a failed verdict ends the check with that
 * failure (thrown as a `Departure`, which the runner reports with its reason and evidence), its
 * reason prefixed with `what` when given.
 */
export function mustPass(verdict: Verdict, what?: string): void {
  if (verdict.status === 'pass') return;
  const reason = verdict.reason ?? 'failed';
  throw new Departure(what ? `${what}: ${reason}` : reason, verdict.evidence);
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

/**
 * Seed 000, Authentication 5: a missing, invalid or revoked key, or a banned owner, gets 401; the
 * body is none (the text) or `{error, code: UNAUTHORIZED}` (the example). `why` ends the reason
 * of another status (` without a valid X-MCP-Key`).
 */
export function judgeUnauthorized(api: Api, operationId: string, e: Exchange, why = ''): Verdict {
  const want = `401 ${describe(api, operationId)}, no body or {error, code: "UNAUTHORIZED"}`;
  if (e.status !== 401) return fail(`answered ${e.status}${why}`, evidenceOf(e, want));
  const b = e.body as { error?: unknown; code?: unknown } | undefined;
  if (e.text && !(typeof b?.error === 'string' && b.code === 'UNAUTHORIZED'))
    return fail(`the 401 body is ${e.text.slice(0, 100)}`, evidenceOf(e, want));
  api.cover(operationId, 401);
  return pass();
}
