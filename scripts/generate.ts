// `npm run generate`: rewrites generated/ from openapi/, mcp-schema/ and the rule catalogue, then the
// table of rules and checks in docs/conformance.md from the catalogue and the suite's checks, and the
// table of tools in mcp-schema/README.md from the tool files.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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
