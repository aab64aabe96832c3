// The counts the prose states (operations of each API, tools by category, Dredd's transactions),
// written by `npm run generate` into every markdown file of the repository and checked by
// test/contracts/doc-counts.test.ts: a new operation or tool changes the sentences with no edit by hand.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundlePath, ROOT } from './paths.ts';
import { type Node, operations } from './spec-walk.ts';
import { absentToolNames, toolNames, toolNamesOf } from './tool-schemas.ts';

type Api = 'v1' | 'v2' | 'admin';

/** What the counts are made of, read once from the bundled contracts and the tool files. */
export function currentCounts() {
  const ops = (api: Api) => operations(JSON.parse(readFileSync(bundlePath(api), 'utf8')) as Node);
  const [v1, v2, admin] = (['v1', 'v2', 'admin'] as const).map((api) => ops(api).length) as [
    number,
    number,
    number,
  ];
  // v1's operations marked `x-assumed: true` (not in seed 001's endpoint list).
  const assumedV1 = ops('v1').filter((o) => o.operation['x-assumed'] === true).length;
  const read = toolNamesOf('read').length;
  const write = toolNamesOf('write').length;
  return {
    v1,
    v2,
    admin,
    assumedV1,
    tools: toolNames().length,
    read,
    write,
    absent: absentToolNames().length,
  };
}
type Counts = ReturnType<typeof currentCounts>;

/** Each sentence that states a count, and the numbers its groups must hold. */
const SENTENCES: [RegExp, (c: Counts) => number[]][] = [
  [
    /Integration REST API: (\d+) documented operations, (\d+) assumed ones/g,
    (c) => [c.v1 - c.assumedV1, c.assumedV1],
  ],
  // The v2 operations but GET /api/v2/mcp/capabilities, which no tool calls.
  [/the (\d+) backend operations the tools call/g, (c) => [c.v2 - 1]],
  [/one per operation \((\d+) of v1, (\d+) of v2\)/g, (c) => [c.v1, c.v2]],
  // Dredd runs one transaction per operation: the export keeps each operation's first 2xx answer only.
  [
    /(\d+) transactions \(v1 (\d+), v2 (\d+), admin (\d+)\)/g,
    (c) => [c.v1 + c.v2 + c.admin, c.v1, c.v2, c.admin],
  ],
  [/\b(\d+) (?:MCP )?tools\b/g, (c) => [c.tools]],
  [/\b(\d+) read tools\b/g, (c) => [c.read]],
  [/\b(\d+) write tools\b/g, (c) => [c.write]],
  [/\b(\d+) read and write tools\b/g, (c) => [c.read + c.write]],
  [/\((\d+) absent\)/g, (c) => [c.absent]],
];

/**
 * A row of the rules table quotes a seed sentence ("There are 25 tools: …"): a quote stays what the
 * seed says.
 */
const QUOTE = /^\| `\d{3}\//;

/** `text` with every stated count made current; `found` counts the sentences seen. */
export function withCounts(text: string, counts: Counts, found = { sentences: 0 }): string {
  return text
    .split('\n')
    .map((line) => {
      if (QUOTE.test(line)) return line;
      for (const [pattern, numbers] of SENTENCES) {
        const want = numbers(counts);
        // From the last group back, so that each replacement leaves the earlier positions as they were.
        const groups = [...line.matchAll(new RegExp(pattern.source, 'dg'))].flatMap((m) => {
          found.sentences++;
          return (m.indices ?? []).slice(1).map((at, i) => ({ at, value: String(want[i]) }));
        });
        for (const { at, value } of groups.reverse())
          if (at) line = line.slice(0, at[0]) + value + line.slice(at[1]);
      }
      return line;
    })
    .join('\n');
}

/** The repository's markdown files but the seeds (which say what they say). */
export const markdownFiles = (): string[] =>
  execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.startsWith('docs/requirements/'))
    .map((f) => join(ROOT, f));
