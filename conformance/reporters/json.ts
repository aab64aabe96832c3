// The machine-readable report: the run, its outcome and every result with its evidence. The same
// object is what `runConformance` (package/run-conformance.ts) resolves to.
import { causes, type Outcome, outcomeOf, type RunReport } from '../runner.ts';

/**
 * `causes`: the MUST failures other checks are blocked by (`blockedBy` on theirs), with those checks,
 * most first: what to fix first.
 */
export type JsonReport = {
  tool: 'lmskit conformance';
  outcome: Outcome;
  causes: { id: string; blocks: string[] }[];
} & RunReport;

export const jsonReport = (report: RunReport): JsonReport => ({
  tool: 'lmskit conformance',
  outcome: outcomeOf(report),
  causes: causes(report),
  ...report,
});

export const toJson = (report: RunReport) => `${JSON.stringify(jsonReport(report), null, 2)}\n`;
