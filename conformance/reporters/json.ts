// The machine-readable report: the run and every result with its evidence.
import type { RunReport } from '../runner.ts';

export const toJson = (report: RunReport) =>
  `${JSON.stringify({ tool: 'lmskit conformance', ...report }, null, 2)}\n`;
