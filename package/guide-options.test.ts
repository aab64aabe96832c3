// docs/guide.md's tables of options are the types' own lists: every option of `MockOptions`
// (package/types.ts) and `McpServerOptions` (mcp-server/start.ts) has its row under its function's
// heading, and no row names an option the type does not have.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../lib/paths.ts';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The properties of `export interface <name> {…}` in a TypeScript file, in order. */
function optionsOf(file: string, name: string): string[] {
  const text = read(file);
  const start = text.indexOf(`export interface ${name} {`);
  if (start < 0) throw new Error(`${file} has no interface ${name}`);
  const body = text.slice(start, text.indexOf('\n}', start));
  return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1] as string);
}

/** The first column of the `| option | …` table under the guide's heading `heading`. */
function tableOf(heading: string): string[] {
  const guide = read('docs/guide.md');
  const from = guide.indexOf(`### ${heading}`);
  if (from < 0) throw new Error(`docs/guide.md has no heading ### ${heading}`);
  const section = guide.slice(from, guide.indexOf('\n### ', from + 1));
  const table = section.slice(section.indexOf('| option |'));
  return [...table.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1] as string);
}

describe("docs/guide.md's tables of options", () => {
  it.each([
    ['`startMock(options?)`', 'package/types.ts', 'MockOptions'],
    ['`startMcpServer(options)`', 'mcp-server/start.ts', 'McpServerOptions'],
  ])('%s lists exactly the options of %s %s', (heading, file, name) => {
    expect(tableOf(heading).sort()).toEqual(optionsOf(file, name).sort());
  });
});
