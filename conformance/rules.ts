// The rule catalogue: every testable statement of the two seeds, with a stable id and its words
// (docs/requirements/rules.yaml, shipped as generated/rules.json). Each check names the rules it
// covers, so a reader of a verdict sees the seed's section and sentence; a rule no check can judge
// says why (`reason`).
import { readFileSync } from 'node:fs';
import { rulesPath } from '../lib/paths.ts';

export interface SeedRule {
  /** `001/users.email-unique`: the seed (000, 001, or `mcp` for the MCP specification) and a name. */
  id: string;
  section: string;
  /** The seed's own words (fragments joined by ` … `). */
  quote: string;
  /** What a deployment must do, in one sentence. */
  rule: string;
  /** Why no black-box check can judge it, for the few that none can. */
  reason?: string;
}

export const seedOf = (id: string) => id.split('/')[0] as '000' | '001' | 'mcp';

export const SEED_RULES: ReadonlyMap<string, SeedRule> = new Map(
  (JSON.parse(readFileSync(rulesPath(), 'utf8')) as { rules: SeedRule[] }).rules.map((r) => [r.id, r]),
);

/** `seed 001, Endpoints > Users`, or `MCP specification, …`. */
function origin(id: string): string {
  const rule = SEED_RULES.get(id);
  if (!rule) return id;
  return seedOf(id) === 'mcp' ? rule.section : `seed ${seedOf(id)}, ${rule.section}`;
}

/** The source line of a check: where each rule it covers comes from, and for a SHOULD, the choice. */
export function sourceOf(rules: readonly string[], assumption?: string): string {
  const where = [...new Set(rules.map(origin))].join('; ');
  return assumption ? `assumed by the kit, not stated by the seeds: ${assumption} (${where})` : where;
}
