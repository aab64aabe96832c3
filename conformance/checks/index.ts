// Every check of the suite, in the order they run: reads first, then writes, then the probes with a
// missing or wrong key — should a deployment count those against a per-IP limit after all, nothing
// else of the run is blocked by it — and last the limit probes (--probe-limits), the failed-login
// one at the very end, since it locks this address out.
import type { Check } from '../types.ts';
import { aiChecks } from './ai.ts';
import { licenceChecks } from './licence.ts';
import { limitChecks } from './limits.ts';
import { mcpChecks } from './mcp.ts';
import { permissionChecks } from './permissions.ts';
import { noKeyChecks, refusalProbes, wrongKeyChecks } from './probes.ts';
import { v1DataChecks } from './v1-data.ts';
import { v1ReadChecks } from './v1-read.ts';
import { v1WriteChecks } from './v1-writes.ts';
import { v2AccessChecks } from './v2-access.ts';
import { v2DataChecks } from './v2-data.ts';
import { v2ReadChecks } from './v2-read.ts';
import { v2WriteChecks } from './v2-writes.ts';

export const ALL_CHECKS: Check[] = [
  ...v1ReadChecks,
  ...v2AccessChecks,
  ...v2ReadChecks,
  ...refusalProbes,
  ...mcpChecks,
  ...v1WriteChecks,
  ...v1DataChecks,
  ...v2WriteChecks,
  ...v2DataChecks,
  ...aiChecks,
  ...permissionChecks,
  ...licenceChecks,
  ...noKeyChecks,
  ...wrongKeyChecks,
  ...limitChecks,
];
