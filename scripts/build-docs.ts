// `npm run docs`: builds the static site into docs/site/ (open docs/site/index.html, no server needed),
// or into the folder `--out` names.
import { relative, resolve } from 'node:path';
import { parseCommandLine } from '../lib/cli.ts';
import { buildDocsSite, DOCS_SITE_DIR, writeDocsSite } from '../lib/docs-site/index.ts';

const HELP = `usage: lmskit docs [--out DIR]

  --out DIR   where to write the site (default docs/site/; its old content is replaced)
`;
const values = parseCommandLine({ out: { type: 'string', default: DOCS_SITE_DIR } }, HELP);
const out = resolve(values.out);
const site = await buildDocsSite();
await writeDocsSite(site, out);
const pages = [...site.keys()].filter((name) => name.endsWith('.html')).sort();
console.log(`built ${pages.length} pages into ${relative(process.cwd(), out) || '.'}/: ${pages.join(', ')}`);
