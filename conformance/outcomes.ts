// Ways a check ends before it reaches its own verdict, thrown from wherever it finds out (a
// discovery, the HTTP client, a budget) and turned into the verdict by the runner.
import type { Exchange } from './exchange.ts';
import type { Evidence, LimitInfo } from './verdict.ts';

/** The configuration lacks what the check needs: `skip`, the message names the flag. */
export class Skipped extends Error {}

/** The check cannot reach a verdict: `incomplete`. */
export class Incomplete extends Error {
  constructor(
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** The deployment's limits refused a request (429) for longer than the suite waits. */
export class Blocked extends Incomplete {
  /** Which limit, and when it ends. */
  readonly limit: LimitInfo;
  constructor(exchange: Pick<Exchange, 'method' | 'url' | 'text'>, retryAfter: number | undefined) {
    super(
      `blocked by the deployment's limits — retry after ${retryAfter ?? '?'} s (${exchange.method} ${exchange.url} answered 429 ${exchange.text.slice(0, 200)})`,
      retryAfter,
    );
    this.limit = limitOf(exchange.text, retryAfter);
  }
}

/**
 * Which of seed 000's limits a 429 is, from its code and message (seed 000, Errors: "A 429 carries the
 * retry delay inside the error message text"; Limits: 5 AI calls per key and 50 per tenant a day;
 * Authentication: the failed-login limit per IP), and when it ends: the time the message names
 * ("resets at …", the deployment's own clock), else now plus the delay asked.
 */
export function limitOf(text: string, retryAfter: number | undefined, now = Date.now()): LimitInfo {
  let code: unknown;
  let message = text;
  try {
    const body = JSON.parse(text) as { code?: unknown; error?: unknown };
    code = body.code;
    if (typeof body.error === 'string') message = body.error;
  } catch {}
  const kind: LimitInfo['kind'] =
    code === 'MCP_AUTH_RATE_LIMITED'
      ? 'failed-logins'
      : /daily ai quota of the workspace|quota of the (workspace|tenant)/i.test(message)
        ? 'ai-quota-tenant'
        : /daily ai quota|ai quota/i.test(message)
          ? 'ai-quota-key'
          : code === 'MCP_RATE_LIMITED'
            ? 'rate'
            : 'unknown';
  const named = /resets at (\d{4}-\d\d-\d\dT[\d:.]+Z)/i.exec(message)?.[1];
  const resetsAt = named
    ? new Date(named).toISOString()
    : retryAfter !== undefined
      ? new Date(now + retryAfter * 1000).toISOString()
      : undefined;
  return { kind, ...(resetsAt ? { resetsAt } : {}) };
}

/**
 * A shared fixture or discovery (`Context.once`) failed in an earlier check, `cause`: the check that
 * meets it again is not judged (`incomplete`, naming the cause), so the failure counts once.
 */
export class KnockOn extends Error {
  constructor(
    /** The id of the check in which the fixture first failed. */
    readonly blamed: string,
    /** The fixture's name (the key of `Context.once`). */
    readonly fixture: string,
    /** What the fixture failed with. */
    readonly error: Error,
  ) {
    super(error.message);
  }
}

/** A departure found while preparing a check (a search the seeds promise finds nothing): `fail`. */
export class Departure extends Error {
  constructor(
    message: string,
    readonly evidence?: Evidence,
  ) {
    super(message);
  }
}
