// `lmskit export --for dredd`: a contract in the form another tool reads. One target so far: Dredd 14
// (lib/dredd-export.ts says what the export changes, and why; docs/conformance.md, "With Dredd").
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseCommandLine, usageError } from '../lib/cli.ts';
import { DREDD_APIS, type DreddApi, dreddExport } from '../lib/dredd-export.ts';
import { bundlePath } from '../lib/paths.ts';

const HELP = `usage: lmskit export --for dredd [--api v1|v2|admin] [--out FILE]

  --for dredd   OpenAPI 3.0.3 that Dredd 14 reads: one example each, each operation's first 2xx
                answer, what cannot run statelessly marked x-dredd-skipped (hooks: tools/dredd/hooks.js)
  --api NAME    the contract: ${DREDD_APIS.join(', ')} (default v1)
  --out FILE    where to write the JSON (default: standard output)
`;
const values = parseCommandLine(
  {
    for: { type: 'string' },
    api: { type: 'string', default: 'v1' },
    out: { type: 'string' },
  },
  HELP,
);
if (values.for !== 'dredd')
  usageError(values.for ? `unknown target ${values.for}; known: dredd` : '--for is required', HELP);
if (!(DREDD_APIS as readonly string[]).includes(values.api))
  usageError(`unknown API ${values.api}; known: ${DREDD_APIS.join(', ')}`, HELP);
const api = values.api as DreddApi;
const doc = dreddExport(JSON.parse(readFileSync(bundlePath(api), 'utf8')), api);
const text = `${JSON.stringify(doc, null, 2)}\n`;
if (values.out) {
  const out = resolve(values.out);
  writeFileSync(out, text);
  const skipped = Object.values(doc.paths as Record<string, Record<string, { 'x-dredd-skipped'?: string }>>)
    .flatMap((item) => Object.values(item))
    .filter((op) => op?.['x-dredd-skipped']).length;
  console.error(
    `wrote the ${api} contract for Dredd (OpenAPI 3.0.3, ${skipped} operation(s) marked x-dredd-skipped) to ${relative(process.cwd(), out) || out}`,
  );
} else process.stdout.write(text);
