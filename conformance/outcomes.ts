// Ways a check ends before it reaches its own verdict, thrown from wherever it finds out (a
// discovery, the HTTP client, a budget) and turned into the verdict by the runner.
import type { Exchange } from './http.ts';
import type { Evidence } from './types.ts';

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
  constructor(exchange: Pick<Exchange, 'method' | 'url' | 'text'>, retryAfter: number | undefined) {
    super(
      `blocked by the deployment's limits — retry after ${retryAfter ?? '?'} s (${exchange.method} ${exchange.url} answered 429 ${exchange.text.slice(0, 200)})`,
      retryAfter,
    );
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
