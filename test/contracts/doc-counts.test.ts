// Counts the prose states by hand (README.md, docs/conformance.md, the Dredd decision record, the tools
// in every markdown file) against the bundled contracts and tool files they count: a new operation fails here with the file and line to update,
// where otherwise nothing would notice the sentence going stale.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DREDD_APIS } from '../../lib/dredd-export.ts';
import { bundlePath, ROOT } from '../../lib/paths.ts';
import { type Node, operations } from '../../lib/spec-walk.ts';
import { absentToolNames, toolNames, toolNamesOf } from '../../lib/tool-schemas.ts';

const spec = (api: 'v1' | 'v2' | 'admin') => JSON.parse(readFileSync(bundlePath(api), 'utf8')) as Node;
const count = (api: 'v1' | 'v2' | 'admin') => operations(spec(api)).length;
/** v1's operations marked `x-assumed: true` (not in seed 001's endpoint list). */
const assumedV1 = () => operations(spec('v1')).filter((o) => o.operation['x-assumed'] === true).length;

/** The repository's markdown files but the seeds (which say what they say). */
const markdownFiles = () =>
  execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.startsWith('docs/requirements/'));

/** Every match of `pattern` in a repository file, with its line, for the message. */
function stated(file: string, pattern: RegExp): { where: string; numbers: number[] }[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  return lines.flatMap((line, i) => {
    const m = pattern.exec(line);
    return m ? [{ where: `${file}:${i + 1}`, numbers: m.slice(1).map(Number) }] : [];
  });
}

describe('counts written in the docs match the contracts', () => {
  it('README.md: v1 documented and assumed operations, v2 backend operations, the tools', () => {
    const [v1] = stated('README.md', /Integration REST API: (\d+) documented operations, (\d+) assumed ones/);
    expect(v1?.numbers, `${v1?.where}`).toEqual([count('v1') - assumedV1(), assumedV1()]);
    const [v2] = stated('README.md', /the (\d+) backend operations the tools call, plus/);
    // Plus GET /api/v2/mcp/capabilities, which no tool calls.
    expect(v2?.numbers, `${v2?.where}`).toEqual([count('v2') - 1]);
  });

  it('every markdown file of the repository: the counts of tools it states', () => {
    // The seed's own sentence ("There are 25 tools: …") is quoted in the rules table of
    // docs/conformance.md; a quote stays what the seed says, so table rows citing a seed rule are skipped.
    const quote = /^\| `\d{3}\//;
    const read = toolNamesOf('read').length;
    const counts: [RegExp, number][] = [
      [/\b(\d+) (?:MCP )?tools\b/g, toolNames().length],
      [/\b(\d+) read tools\b/g, read],
      [/\b(\d+) write tools\b/g, toolNamesOf('write').length],
      [/\b(\d+) read and write tools\b/g, read + toolNamesOf('write').length],
      [/\((\d+) absent\)/g, absentToolNames().length],
    ];
    let seen = 0;
    for (const file of markdownFiles()) {
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (quote.test(line)) return;
          for (const [pattern, want] of counts)
            for (const m of line.matchAll(pattern)) {
              seen++;
              expect(Number(m[1]), `${file}:${i + 1}: "${m[0]}"`).toBe(want);
            }
        });
    }
    expect(seen).toBeGreaterThan(10);
  });

  it('docs/conformance.md: one no-key probe per operation of v1 and v2', () => {
    const [probes] = stated('docs/conformance.md', /one per operation \((\d+) of v1, (\d+) of v2\)/);
    expect(probes?.numbers, `${probes?.where}`).toEqual([count('v1'), count('v2')]);
  });

  it('docs/conformance.md and docs/adr-0001-no-dredd.md: Dredd runs one transaction per operation', () => {
    // One transaction per operation: the export keeps each operation's first 2xx answer only.
    const perApi = DREDD_APIS.map((api) => count(api));
    const total = perApi.reduce((a, b) => a + b, 0);
    const sentences = [
      ...stated('docs/conformance.md', /(\d+) transactions \(v1 (\d+), v2 (\d+),/),
      ...stated('docs/adr-0001-no-dredd.md', /(\d+) transactions \(v1 (\d+), v2 (\d+), admin (\d+)\)/),
    ];
    expect(sentences.length).toBe(2);
    for (const s of sentences)
      expect(s.numbers, s.where).toEqual([total, ...perApi].slice(0, s.numbers.length));
    const [admin] = stated('docs/conformance.md', /^admin (\d+)\), all passing/);
    expect(admin?.numbers, `${admin?.where}`).toEqual([count('admin')]);
  });
});
