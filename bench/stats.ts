// The statistics of the interleaved rounds: medians, and the min–max spread reported beside them.

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export const spread = (xs: number[]) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });

export const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Per round, `a`'s measure over `b`'s in the same round. A measure under 1 counts as 1: autocannon's
 * latencies are whole ms, and a p99 of 0 would divide by nothing.
 */
export const roundRatios = <T>(a: T[], b: T[], measure: (x: T) => number) =>
  a.map((x, i) => measure(x) / Math.max(b[i] === undefined ? 0 : measure(b[i] as T), 1));
