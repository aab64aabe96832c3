// `npm run lint`: the contracts and the code, with no errors and no warnings allowed.
import { lintCode, lintSpecs, lintToolSchemas } from '../lib/lint.ts';

const sections = [
  ['OpenAPI (Redocly)', await lintSpecs()],
  ['MCP tool schemas (strict ajv)', lintToolSchemas()],
  ['Code (Biome, tsc)', await lintCode()],
] as const;
let failed = false;
for (const [name, problems] of sections) {
  console.log(
    `${problems.length ? '✗' : '✓'} ${name}${problems.length ? `: ${problems.length} problem(s)` : ''}`,
  );
  for (const p of problems) console.log(`  ${p.replaceAll('\n', '\n  ')}`);
  failed ||= problems.length > 0;
}
process.exit(failed ? 1 : 0);
