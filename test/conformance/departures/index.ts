// The mutation matrix of the conformance suite: departures from the seeds that a real deployment
// could ship — each traced to the seed sentence it breaks and to the MUST check that must catch it —
// and legitimate variations: choices the seeds leave open, made otherwise than the kit made them,
// which must not fail a MUST. Each is a set of rewrites for the proxy in front of the real mock
// (../proxy.ts); one file per area, this index the table of contents.
import { AI_DEPARTURES } from './ai.ts';
import type { Departure } from './kit.ts';
import { LICENCE_DEPARTURES } from './licence.ts';
import { LIMIT_DEPARTURES } from './limits.ts';
import { MCP_DEPARTURES } from './mcp.ts';
import { PERMISSION_DEPARTURES } from './permissions.ts';
import { V1_DEPARTURES } from './v1.ts';
import { V1_DATA_DEPARTURES } from './v1-data.ts';
import { V1_WEBHOOK_DEPARTURES } from './v1-webhooks.ts';
import { V2_DEPARTURES } from './v2.ts';
import { V2_DATA_DEPARTURES } from './v2-data.ts';

export type { Departure, Variation } from './kit.ts';
export { VARIATIONS } from './variations.ts';

export const DEPARTURES: Departure[] = [
  ...V1_DEPARTURES,
  ...V1_DATA_DEPARTURES,
  ...V1_WEBHOOK_DEPARTURES,
  ...V2_DEPARTURES,
  ...V2_DATA_DEPARTURES,
  ...AI_DEPARTURES,
  ...PERMISSION_DEPARTURES,
  ...LICENCE_DEPARTURES,
  ...MCP_DEPARTURES,
  ...LIMIT_DEPARTURES,
];
