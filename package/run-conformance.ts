// runConformance: the conformance suite run from code, resolving to the report
// `npx lmskit conformance --report json=FILE` writes.

import { type Baseline, baselineIds, readBaseline } from '../conformance/baseline.ts';
import { ALL_CHECKS } from '../conformance/checks/index.ts';
import type { ConformanceConfig } from '../conformance/context.ts';
import { OPTION_NAMES, preflight, SettingError } from '../conformance/preflight.ts';
import { type JsonReport, jsonReport } from '../conformance/reporters/json.ts';
import { runChecks } from '../conformance/runner.ts';
import type { Result } from '../conformance/types.ts';

export interface ConformanceOptions
  extends Omit<ConformanceConfig, 'mcpKeys' | 'allowWrites' | 'timeoutMs' | 'pollIntervalMs' | 'baseline'> {
  /**
   * Expected failures (docs/conformance.md, "Baseline"): the path of a JSON report of an earlier run or
   * of a JSON list of check ids, such a report itself, or the list. The outcome is `failed` only for a
   * MUST failure it does not list; the report's `baseline` says what is newly failing and what it lists
   * that now passes.
   */
  baseline?: string | string[] | { results: unknown[] };
  /** MCP keys of several kinds (a read-only one and a read + write one run the most checks). */
  mcpKeys?: string[];
  /** Run the checks that create fixtures on the deployment; default false. */
  allowWrites?: boolean;
  /** Called with each check's result as it comes in. */
  onResult?: (result: Result) => void;
}

/**
 * Runs the conformance suite against a deployment (or a mock) and resolves to the report that
 * `npx lmskit conformance --report json=FILE` writes, with the run's `outcome`: `passed` only when
 * every MUST ran and passed (docs/conformance.md). Rejects with a `SettingError` (one sentence) before
 * any check when a setting cannot be judged with: `baseUrl` without its scheme or naming an API's
 * path, a deployment that cannot be reached, an `apiKey` it refuses, an unknown role in `roleKeys`.
 */
export async function runConformance(options: ConformanceOptions): Promise<JsonReport> {
  const { onResult, mcpKeys = [], allowWrites = false, baseline: given, ...rest } = options;
  let baseline: Baseline | undefined;
  try {
    baseline =
      given === undefined
        ? undefined
        : typeof given === 'string'
          ? readBaseline(given)
          : {
              source: Array.isArray(given) ? 'the baseline given (a list)' : 'the baseline given (a report)',
              ids: baselineIds(given),
            };
  } catch (error) {
    throw new Error(`runConformance: ${(error as Error).message}`);
  }
  const config = { ...rest, mcpKeys, allowWrites, ...(baseline ? { baseline } : {}) };
  // As the command's exit code 2: a setting the run cannot be judged with rejects, nothing judged.
  try {
    await preflight(config, OPTION_NAMES);
  } catch (error) {
    if (error instanceof SettingError) throw new SettingError(`runConformance: ${error.message}`);
    throw error;
  }
  return jsonReport(await runChecks(ALL_CHECKS, config, onResult));
}
