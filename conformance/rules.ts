// The seed rules a deployment must keep, as the contracts list them (`x-seed-rules` in
// openapi/v1/openapi.yaml, openapi/v2/openapi.yaml and mcp-schema/index.json): each check names the
// rules it covers, and a reader of a verdict sees the seed's section and words.
import { readFileSync } from 'node:fs';
import { bundlePath } from '../lib/paths.ts';
import { loadToolIndex } from '../lib/tool-schemas.ts';

export interface SeedRule {
  /** `001/users.email-unique`: the seed (000, 001, or `mcp` for the MCP specification) and a name. */
  id: string;
  section: string;
  rule: string;
}

const fromBundle = (api: 'v1' | 'v2'): SeedRule[] =>
  JSON.parse(readFileSync(bundlePath(api), 'utf8'))['x-seed-rules'] ?? [];

export const SEED_RULES: ReadonlyMap<string, SeedRule> = new Map(
  [
    ...fromBundle('v1'),
    ...fromBundle('v2'),
    ...((loadToolIndex() as { 'x-seed-rules'?: SeedRule[] })['x-seed-rules'] ?? []),
  ].map((r) => [r.id, r]),
);

/** `seed 001, Endpoints > Users`, or `MCP specification, …`. */
function origin(id: string): string {
  const rule = SEED_RULES.get(id);
  if (!rule) return id;
  return id.startsWith('mcp/') ? rule.section : `seed ${id.split('/')[0]}, ${rule.section}`;
}

/** The source line of a check: where each rule it covers comes from, and for a SHOULD, the choice. */
export function sourceOf(rules: readonly string[], assumption?: string): string {
  const where = [...new Set(rules.map(origin))].join('; ');
  return assumption ? `assumed by the kit, not stated by the seeds: ${assumption} (${where})` : where;
}
