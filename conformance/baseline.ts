// A baseline of expected failures (`--baseline FILE`, `baseline` of runConformance), so that CI can
// adopt the suite before every failure is fixed: the run fails only on a MUST failure the baseline
// does not list, and says what the baseline lists that now passes (docs/conformance.md, "Baseline").
// A baseline is the suite's own JSON report of an earlier run (its MUST failures) or a JSON list of
// check ids.
import { readFileSync } from 'node:fs';
import type { Result } from './verdict.ts';

/** A baseline as read: where it came from and the ids of the checks expected to fail. */
export interface Baseline {
  source: string;
  ids: string[];
}

/** How a run compares with its baseline. */
export interface BaselineComparison {
  source: string;
  /** How many check ids the baseline lists. */
  listed: number;
  /** MUST failures the baseline does not list: what makes the run fail. */
  newFailures: string[];
  /** MUST failures the baseline lists: still failing, expected. */
  known: string[];
  /** Checks the baseline lists that now pass: to take out of it. */
  fixed: string[];
  /** Checks the baseline lists that this run did not judge (skipped, incomplete, blocked, not in the suite). */
  unjudged: string[];
}

/**
 * The check ids of a baseline's JSON: a list of ids, or a report of the suite (`--report json=FILE`,
 * `runConformance`), whose MUST failures it takes. Throws, saying why, on anything else.
 */
export function baselineIds(value: unknown): string[] {
  if (Array.isArray(value)) {
    const bad = value.find((v) => typeof v !== 'string' || !v);
    if (bad !== undefined) throw new Error(`a list of check ids holds ${JSON.stringify(bad)}, not an id`);
    return [...new Set(value as string[])];
  }
  const results = (value as { results?: unknown } | null)?.results;
  if (value && typeof value === 'object' && Array.isArray(results)) {
    return [
      ...new Set(
        (results as Partial<Result>[])
          .filter((r) => r?.level === 'MUST' && r.status === 'fail' && typeof r.id === 'string')
          .map((r) => r.id as string),
      ),
    ];
  }
  throw new Error('it is neither a JSON report of the suite (with "results") nor a JSON list of check ids');
}

/** Reads a baseline file; throws an error whose message names the file and what is wrong with it. */
export function readBaseline(file: string): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read the baseline ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`the baseline ${file} is not JSON: ${(error as Error).message}`);
  }
  try {
    return { source: file, ids: baselineIds(value) };
  } catch (error) {
    throw new Error(`the baseline ${file}: ${(error as Error).message}`);
  }
}

/** How the results compare with the baseline. */
export function compareWithBaseline(results: Result[], baseline: Baseline): BaselineComparison {
  const listed = new Set(baseline.ids);
  const byId = new Map(results.map((r) => [r.id, r]));
  const mustFailed = results.filter((r) => r.level === 'MUST' && r.status === 'fail').map((r) => r.id);
  return {
    source: baseline.source,
    listed: listed.size,
    newFailures: mustFailed.filter((id) => !listed.has(id)),
    known: mustFailed.filter((id) => listed.has(id)),
    fixed: baseline.ids.filter((id) => byId.get(id)?.status === 'pass'),
    unjudged: baseline.ids.filter((id) => {
      const status = byId.get(id)?.status;
      return status !== 'pass' && status !== 'fail';
    }),
  };
}
