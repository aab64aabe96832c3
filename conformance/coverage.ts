// The rule catalogue with the checks that cover each rule: `npx lmskit conformance --rules` prints it
// (markdown for people, `--format json` for tools), and `npm run generate` writes the markdown into
// docs/conformance.md, "What it checks".
import { withMarkedBlock } from '../lib/marked-block.ts';
import { SEED_RULES, seedOf } from './rules.ts';
import type { Check } from './types.ts';

export interface CatalogueEntry {
  id: string;
  seed: '000' | '001' | 'mcp';
  section: string;
  quote: string;
  rule: string;
  /** The checks that cover it, MUST first. */
  checks: string[];
  /** Why no black-box check can judge it (only where no check does). */
  reason?: string;
}

export function ruleCatalogue(checks: Check[]): CatalogueEntry[] {
  return [...SEED_RULES.values()].map((r) => {
    const covering = checks.filter((c) => c.rules.includes(r.id));
    return {
      id: r.id,
      seed: seedOf(r.id),
      section: r.section,
      quote: r.quote,
      rule: r.rule,
      checks: [
        ...covering.filter((c) => c.level === 'MUST').map((c) => c.id),
        ...covering.filter((c) => c.level === 'SHOULD').map((c) => c.id),
      ],
      ...(r.reason ? { reason: r.reason } : {}),
    };
  });
}

/** Six or more ids that differ only in the last part (the probes of each operation) → `v1.auth.no-key.* (17)`. */
function compact(ids: string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const id of ids) {
    const prefix = id.slice(0, id.lastIndexOf('.'));
    groups.set(prefix, [...(groups.get(prefix) ?? []), id]);
  }
  return [...groups].flatMap(([prefix, members]) =>
    members.length >= 6 ? [`${prefix}.* (${members.length})`] : members,
  );
}

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function coverageMarkdown(checks: Check[]): string {
  const levels = new Map(checks.map((c) => [c.id, c.level]));
  const entries = ruleCatalogue(checks);
  const checked = entries.filter((e) => e.checks.some((id) => levels.get(id) === 'MUST')).length;
  const rows = entries.map((e) => {
    const must = compact(e.checks.filter((id) => levels.get(id) === 'MUST'));
    const should = compact(e.checks.filter((id) => levels.get(id) === 'SHOULD'));
    const by = [
      ...must.map((id) => `\`${id}\``),
      ...should.map((id) => `\`${id}\` (SHOULD)`),
      ...(e.reason ? [`not checked: ${e.reason}`] : []),
    ];
    return `| \`${e.id}\` | ${cell(e.section)} | ${cell(e.quote)} | ${cell(by.join(', '))} |`;
  });
  return [
    `${entries.length} rules: ${checked} judged by MUST checks (${Math.floor((checked / entries.length) * 1000) / 10} %), ${entries.length - checked} that no check from outside can judge, each with the reason.`,
    '',
    '| rule | seed section | the seed says | checked by |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const BEGIN = '<!-- rules:begin (npm run generate writes this table from docs/requirements/rules.yaml) -->';
const END = '<!-- rules:end -->';

/** docs/conformance.md with the table between its markers made anew. */
export const withCoverageTable = (doc: string, checks: Check[]): string =>
  withMarkedBlock(doc, 'docs/conformance.md', BEGIN, END, coverageMarkdown(checks));
