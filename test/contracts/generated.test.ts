// Contract test (d): generated/ is exactly what `npm run generate` makes from the contracts now,
// so a spec change that was not regenerated fails here (docs/adr-0002: the contract is the truth).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../lib/generate.ts';
import { GENERATED_DIR, ROOT } from '../../lib/paths.ts';
import { loadTools } from '../../lib/tool-schemas.ts';
import { toolsTableMarkdown } from '../../lib/tools-table.ts';

const listFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();

describe('generated/ is fresh', () => {
  let fresh = '';
  afterAll(() => rm(fresh, { recursive: true, force: true }));

  it('equals a new generation, file for file', async () => {
    fresh = await mkdtemp(join(tmpdir(), 'lmskit-generated-'));
    const written = await generate(fresh);
    expect(listFiles(GENERATED_DIR)).toEqual(written);
    for (const file of written) {
      expect(readFileSync(join(GENERATED_DIR, file), 'utf8'), `${file} is stale: run npm run generate`).toBe(
        readFileSync(join(fresh, file), 'utf8'),
      );
    }
  }, 120_000);

  it('mcp-schema/README.md lists every tool file as it is (npm run generate writes the table)', () => {
    expect(
      readFileSync(join(ROOT, 'mcp-schema', 'README.md'), 'utf8'),
      'mcp-schema/README.md is stale: run npm run generate',
    ).toContain(toolsTableMarkdown(loadTools()));
  });

  it('marks every generated file as not to be edited', () => {
    for (const file of listFiles(GENERATED_DIR)) {
      expect(readFileSync(join(GENERATED_DIR, file), 'utf8'), file).toMatch(/Do not edit/);
    }
  });
});
