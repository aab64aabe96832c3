// `npm run docs`: builds the static site into docs/site/ (open docs/site/index.html, no server needed).
import { relative } from 'node:path';
import { buildDocsSite, DOCS_SITE_DIR } from '../lib/docs-site.ts';

const pages = await buildDocsSite();
console.log(
  `built ${pages.length} pages into ${relative(process.cwd(), DOCS_SITE_DIR)}/: ${pages.join(', ')}`,
);
