// Which checks cover which seed rule, as the table of docs/conformance.md shows it (a test keeps
// the two equal; `npx lmskit conformance --rules` prints it).
import { SEED_RULES } from './rules.ts';
import type { Check } from './types.ts';
import { UNPROBED_RULES } from './unprobed.ts';

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

const cell = (s: string) => s.replaceAll('|', '\\|');

export function coverageMarkdown(checks: Check[]): string {
  const rows = [...SEED_RULES.values()].map((rule) => {
    const covering = checks.filter((c) => c.rules.includes(rule.id));
    const must = compact(covering.filter((c) => c.level === 'MUST').map((c) => c.id));
    const should = compact(covering.filter((c) => c.level === 'SHOULD').map((c) => c.id));
    const by = [
      ...must.map((id) => `\`${id}\``),
      ...should.map((id) => `\`${id}\` (SHOULD)`),
      ...(UNPROBED_RULES[rule.id] ? [`not probed: ${UNPROBED_RULES[rule.id]}`] : []),
    ];
    return `| \`${rule.id}\` | ${cell(rule.section)} | ${cell(rule.rule)} | ${cell(by.join(', '))} |`;
  });
  return ['| rule | seed section | the seed says | checked by |', '|---|---|---|---|', ...rows].join('\n');
}
