// A test's verdict on a per-key rate limit (docs/adr-0002: a token bucket of N requests per minute),
// true at any speed of the machine. A bucket that refills while the requests go is no fault: a
// client sending N + 1 requests in a row meets the refusal only if they all fit in the time one
// token takes to come back (half a second at 120 a minute), which a busy machine does not promise.
// So the verdict is the rule itself: the full burst is admitted, and no more than the burst plus
// what the elapsed time refilled.

export interface Burst {
  /** The statuses, in order, up to and including the first refusal (or the last request sent). */
  statuses: number[];
  /** From before the first request was sent to after the last answer arrived. */
  elapsedMs: number;
}

/** Sends requests one after another until the first 429, at most `most` of them. */
export async function sendUntilRefused(send: () => Promise<number>, most: number): Promise<Burst> {
  const statuses: number[] = [];
  const start = performance.now();
  while (statuses.length < most && statuses.at(-1) !== 429) statuses.push(await send());
  return { statuses, elapsedMs: performance.now() - start };
}

/** What a burst shows against a bucket of `perMinute` requests per minute; empty when it keeps the rule. */
export function burstProblems({ statuses, elapsedMs }: Burst, perMinute: number): string[] {
  const problems: string[] = [];
  const admitted = statuses.filter((s) => s === 200).length;
  const others = statuses.filter((s) => s !== 200 && s !== 429);
  if (others.length) problems.push(`statuses other than 200 and 429: ${[...new Set(others)].join(', ')}`);
  const refilled = Math.floor((elapsedMs * perMinute) / 60_000);
  if (admitted > perMinute + refilled)
    problems.push(
      `${admitted} admitted in ${Math.round(elapsedMs)} ms: more than the ${perMinute} of a full bucket and the ${refilled} it refilled meanwhile`,
    );
  if (statuses.includes(429) && admitted < perMinute)
    problems.push(`refused after ${admitted} requests, before the ${perMinute} of a full bucket`);
  return problems;
}
