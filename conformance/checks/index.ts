// Every check of the suite, in the order they run: read-only ones first, then those that write.
import type { Check } from '../types.ts';
import { mcpChecks } from './mcp.ts';
import { v1ReadChecks } from './v1-read.ts';
import { v1WriteChecks } from './v1-writes.ts';
import { v2AccessChecks } from './v2-access.ts';
import { v2ReadChecks } from './v2-read.ts';
import { v2WriteChecks } from './v2-writes.ts';

export const ALL_CHECKS: Check[] = [
  ...v1ReadChecks,
  ...v2AccessChecks,
  ...v2ReadChecks,
  ...mcpChecks,
  ...v1WriteChecks,
  ...v2WriteChecks,
];
