// The machine-readable report: the run, its outcome and every result with its evidence. The same
// object is what `runConformance` (package/run-conformance.ts) resolves to.
import { type Outcome, outcomeOf, type RunReport } from '../runner.ts';

export type JsonReport = { tool: 'lmskit conformance'; outcome: Outcome } & RunReport;

export const jsonReport = (report: RunReport): JsonReport => ({
  tool: 'lmskit conformance',
  outcome: outcomeOf(report),
  ...report,
});

export const toJson = (report: RunReport) => `${JSON.stringify(jsonReport(report), null, 2)}\n`;
