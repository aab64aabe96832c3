// The rule catalogue (docs/requirements/rules.yaml) against the seeds it quotes: every quote is the
// seed's text word for word, every id is stable in form and unique, every section names headings of
// its seed. A reader of a verdict sees the seed's own words, so they must be the seed's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, RULES_SOURCE } from '../../lib/paths.ts';

interface Rule {
  id: string;
  section: string;
  quote: string;
  rule: string;
  reason?: string;
  seed?: string;
}

const rules = parse(readFileSync(RULES_SOURCE, 'utf8')) as Rule[];
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
const seedText = Object.fromEntries(
  [
    ['000', 'seed-000-mcp-tool-interface.md'],
    ['001', 'seed-001-integration-rest-api.md'],
  ].map(([seed, file]) => [
    seed,
    flat(readFileSync(join(ROOT, 'docs', 'requirements', file as string), 'utf8')),
  ]),
);
const headings = Object.fromEntries(
  Object.entries(seedText).map(([seed]) => {
    const file = seed === '000' ? 'seed-000-mcp-tool-interface.md' : 'seed-001-integration-rest-api.md';
    const text = readFileSync(join(ROOT, 'docs', 'requirements', file), 'utf8');
    return [seed, [...text.matchAll(/^#{2,4} (.+)$/gm)].map((m) => (m[1] as string).trim())];
  }),
);

describe('the rule catalogue (docs/requirements/rules.yaml)', () => {
  it('has unique ids of the form <seed>/<area>.<subject>, each rule with a sentence', () => {
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const r of rules) {
      expect(r.id).toMatch(/^(000|001|mcp)\/[a-z0-9]+(?:[.-][a-z0-9]+)*$/);
      expect(r.rule, r.id).toMatch(/\S.*\.$/);
      expect(r.section, r.id).toBeTruthy();
    }
  });

  it.each(rules.filter((r) => !r.id.startsWith('mcp/')).map((r) => [r.id, r] as const))(
    '%s quotes its seed word for word',
    (_id, r) => {
      const text = seedText[r.id.slice(0, 3)] as string;
      for (const fragment of r.quote.split(' … ')) {
        expect(text.includes(flat(fragment)), `"${fragment}" is not in seed ${r.id.slice(0, 3)}`).toBe(true);
      }
    },
  );

  it('names sections that are headings of its seed (or a numbered point under one)', () => {
    for (const r of rules.filter((x) => !x.id.startsWith('mcp/'))) {
      const known = headings[r.id.slice(0, 3)] as string[];
      for (const part of r.section.split('; ')) {
        const first = (part.split(' > ')[0] as string).replace(/ \d+(, \d+)*$/, '');
        expect(
          known.some((h) => h === first || h.startsWith(first)),
          `${r.id}: "${first}" is no heading of its seed`,
        ).toBe(true);
      }
    }
  });
});
