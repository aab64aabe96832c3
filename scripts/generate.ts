// `npm run generate`: rewrites generated/ from openapi/, mcp-schema/ and the rule catalogue, then the
// table of rules and checks in docs/conformance.md from the catalogue and the suite's checks, and the
// table of tools in mcp-schema/README.md from the tool files, and the counts the markdown states.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { currentCounts, markdownFiles, withCounts } from '../lib/doc-counts.ts';
import { generate } from '../lib/generate.ts';
import { GENERATED_DIR, ROOT } from '../lib/paths.ts';
import { loadTools } from '../lib/tool-schemas.ts';
import { withToolsTable } from '../lib/tools-table.ts';

const files = await generate();
console.log(`generated ${files.length} files into ${relative(process.cwd(), GENERATED_DIR) || '.'}/`);

// Loaded after generation: the suite reads the catalogue just written.
const { ALL_CHECKS } = await import('../conformance/checks/index.ts');
const { withCoverageTable } = await import('../conformance/coverage.ts');
const doc = join(ROOT, 'docs', 'conformance.md');
writeFileSync(doc, withCoverageTable(readFileSync(doc, 'utf8'), ALL_CHECKS));
console.log('wrote the table of rules and checks into docs/conformance.md');

const toolsDoc = join(ROOT, 'mcp-schema', 'README.md');
writeFileSync(toolsDoc, withToolsTable(readFileSync(toolsDoc, 'utf8'), loadTools()));
console.log('wrote the table of tools into mcp-schema/README.md');

// Last: the counts read the bundles just written.
const counts = currentCounts();
const changed = markdownFiles().filter((file) => {
  const text = readFileSync(file, 'utf8');
  const current = withCounts(text, counts);
  if (current !== text) writeFileSync(file, current);
  return current !== text;
});
console.log(`wrote the counts of operations and tools into ${changed.length} markdown files`);
