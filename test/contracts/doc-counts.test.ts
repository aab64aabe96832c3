// The counts the prose states (operations, tools, Dredd's transactions; lib/doc-counts.ts) against the
// bundled contracts and tool files they count: a stale sentence fails here with its file and line.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentCounts, markdownFiles, withCounts } from '../../lib/doc-counts.ts';
import { ROOT } from '../../lib/paths.ts';

describe('counts written in the docs match the contracts (npm run generate writes them)', () => {
  it('every markdown file of the repository states the current counts', () => {
    const counts = currentCounts();
    const found = { sentences: 0 };
    const stale = markdownFiles().flatMap((file) => {
      const lines = readFileSync(file, 'utf8').split('\n');
      const current = withCounts(lines.join('\n'), counts, found).split('\n');
      return lines.flatMap((line, i) =>
        line === current[i]
          ? []
          : [`${relative(ROOT, file)}:${i + 1}: "${line.trim()}" should read "${current[i]?.trim()}"`],
      );
    });
    expect(stale, 'stale counts: run npm run generate').toEqual([]);
    expect(found.sentences).toBeGreaterThan(15);
  });

  it('finds each kind of sentence and puts the right numbers in its groups', () => {
    const counts = { v1: 17, v2: 27, admin: 42, assumedV1: 2, tools: 25, read: 11, write: 7, absent: 2 };
    const table: [string, string][] = [
      [
        'Integration REST API: 1 documented operations, 1 assumed ones',
        'Integration REST API: 15 documented operations, 2 assumed ones',
      ],
      ['the 9 backend operations the tools call', 'the 26 backend operations the tools call'],
      ['one per operation (1 of v1, 2 of v2)', 'one per operation (17 of v1, 27 of v2)'],
      ['2 transactions (v1 2, v2 2, admin 2)', '86 transactions (v1 17, v2 27, admin 42)'],
      ['the 3 tools and 4 MCP tools', 'the 25 tools and 25 MCP tools'],
      [
        'sees the 1 read tools; the 2 read and write tools; 3 write tools (9 absent)',
        'sees the 11 read tools; the 18 read and write tools; 7 write tools (2 absent)',
      ],
      [
        '| `000/tools.catalogue` | … | There are 3 tools |',
        '| `000/tools.catalogue` | … | There are 3 tools |',
      ],
      ['two tools, 429 that the tool', 'two tools, 429 that the tool'],
    ];
    for (const [given, want] of table) expect(withCounts(given, counts), given).toBe(want);
  });
});
