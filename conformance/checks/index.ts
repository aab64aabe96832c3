// Every check of the suite, in the order they run: reads first, then writes, and last the probes
// with a missing or wrong key — should a deployment count those against a per-IP limit after all,
// nothing else of the run is blocked by it.
import type { Check } from '../types.ts';
import { mcpChecks } from './mcp.ts';
import { noKeyChecks, refusalProbes, wrongKeyChecks } from './probes.ts';
import { v1ReadChecks } from './v1-read.ts';
import { v1WriteChecks } from './v1-writes.ts';
import { v2AccessChecks } from './v2-access.ts';
import { v2ReadChecks } from './v2-read.ts';
import { v2WriteChecks } from './v2-writes.ts';

export const ALL_CHECKS: Check[] = [
  ...v1ReadChecks,
  ...v2AccessChecks,
  ...v2ReadChecks,
  ...refusalProbes,
  ...mcpChecks,
  ...v1WriteChecks,
  ...v2WriteChecks,
  ...noKeyChecks,
  ...wrongKeyChecks,
];
