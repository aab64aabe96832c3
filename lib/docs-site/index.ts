// Builds the docs site: one Redoc reference per API, a page for the MCP tools and one for the
// assumed choices generated from the contracts, the guides of docs/ and the seed documents — all
// under one header with one search, self-contained, so the site works from disk with no network.
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../../mock/seed/demo.ts';
import { escapeHtml as html } from '../html.ts';
import { API_NAMES, type ApiName, bundlePath, DOCS_SITE_DIR, ROOT } from '../paths.ts';
import type { Node } from '../spec-walk.ts';
import { absentTools, loadTools } from '../tool-schemas.ts';
import { apiAssumptions, toolAssumptions } from './assumptions.ts';
import { mockAddressBox } from './home.ts';
import { markdownSources, pageNameOf, renderMarkdown } from './markdown.ts';
import { bodyAssets, headAssets, siteHeader } from './nav.ts';
import { seedResolver } from './provenance.ts';
import { buildReferencePage, contractFile, mockMeta, operationHref, operationsOf } from './reference.ts';
import { htmlSections, type SearchDoc, searchIndexScript, textOf } from './search.ts';
import { toolsPageBody } from './tools.ts';

export { DOCS_SITE_DIR };

export const API_TITLES: Record<ApiName, string> = {
  v1: 'Integration REST API (v1)',
  v2: 'MCP backend API (v2)',
  admin: 'Mock admin API',
};

/** The site: file name (relative to its root) → content. */
export type Site = Map<string, string | Uint8Array>;

/**
 * A page of the site around a body: the header, the style, the search. Its tables scroll sideways in
 * a box of their own, so a narrow screen scrolls a table, never the page. `head` is added to the
 * page's head.
 */
function shell(name: string, title: string, body: string, head = ''): string {
  const boxed = body.replace(/<table[\s>][\s\S]*?<\/table>/g, '<div class="lmskit-table">$&</div>');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)} · lmskit</title>${head}${headAssets()}</head>
<body>${siteHeader(name)}<main class="lmskit-page">
${boxed}
</main>
${bodyAssets()}
</body></html>
`;
}

const assetsDir = fileURLToPath(new URL('assets/', import.meta.url));
const asset = (file: string) => readFileSync(join(assetsDir, file), 'utf8');
/** MiniSearch's browser build (the file its package names for `unpkg`), shipped with the site. */
function miniSearchBrowser(): string {
  const main = createRequire(import.meta.url).resolve('minisearch');
  return readFileSync(join(dirname(main), '..', 'umd', 'index.js'), 'utf8');
}

function assumptionsPageBody(bundles: Record<ApiName, Record<string, unknown>>): string {
  return `<h1 id="assumed-choices">Assumed choices</h1>
<p>Where a seed says "not shown", the contracts still choose. Each such choice is marked <code>x-assumed: true</code>
next to a sentence that states it; the conformance suite checks these only at level SHOULD. This page is generated
from the contracts, grouped by API and operation; each heading links to the operation in the reference.</p>
<p>${[...API_NAMES.map((api) => `<a href="#${api}">${html(API_TITLES[api])}</a>`), '<a href="#tools">MCP tools</a>'].join(' · ')}</p>
${API_NAMES.map((api) => apiAssumptions(api, API_TITLES[api], bundles[api])).join('\n')}
${toolAssumptions(loadTools())}`;
}

/** The search entries of a reference: one per operation, leading to its route. */
function operationDocs(api: ApiName, bundle: Record<string, unknown>): SearchDoc[] {
  return operationsOf(api, bundle).map(({ method, path, operation }) => {
    const description = textOf(marked.parse(String(operation.description ?? ''), { async: false }));
    return {
      url: operationHref(api, operation),
      title: String(operation.summary),
      page: `${API_TITLES[api]} · ${method.toUpperCase()} ${path}`,
      text: `${method.toUpperCase()} ${path} ${operation.operationId} ${description}`,
      excerpt: description,
      weight: 2,
    };
  });
}

/** The guide with the box of the mock's addresses before its first section. */
function withAddressBox(guide: string, origin: string): string {
  const box = mockAddressBox(origin, { site: DEMO_SITE_API_KEY, mcp: demoMcpKey('write') });
  const at = guide.search(/<h2[\s>]/);
  return at < 0 ? `${guide}\n${box}` : `${guide.slice(0, at)}${box}\n${guide.slice(at)}`;
}

/** Builds every file of the site in memory. */
export async function buildDocsSite(): Promise<Site> {
  const bundles = Object.fromEntries(
    API_NAMES.map((api) => [api, JSON.parse(readFileSync(bundlePath(api), 'utf8'))]),
  ) as Record<ApiName, Node>;
  const names = new Set([...API_NAMES.map((api) => `${api}.html`), 'tools.html', 'assumptions.html']);
  const sources = markdownSources();
  for (const source of sources) names.add(pageNameOf(source) ?? source);
  const written = sources.map((source) => renderMarkdown(source, names));
  const resolveSeed = seedResolver(written.filter((p) => p.source.startsWith('docs/requirements/seed-')));

  const site: Site = new Map();
  const docs: SearchDoc[] = [];
  // A search weighs a guide's section as much as a reference's operation (2): a short heading about a
  // topic (`Webhooks` for "webhook") comes first for it, the operations that name it beside; then the
  // tools (1.5), the seeds (1), whose sections name every topic in the platform's words, and the list
  // of assumed choices, which names the same operations again, last (0.5).
  const GUIDE = 2;
  const addPage = (name: string, title: string, body: string, weight = GUIDE, head = '') => {
    site.set(name, shell(name, title, body, head));
    docs.push(...htmlSections(name, title, body, weight));
  };
  // The home page names the mock's address, which the mock serving the site replaces by its own.
  const origin = new URL(bundles.v1.servers[0].url).origin;
  for (const page of written) {
    const weight = page.source.startsWith('docs/requirements/') ? 1 : GUIDE;
    if (page.name !== 'index.html') addPage(page.name, page.title, page.html, weight);
    else addPage(page.name, page.title, withAddressBox(page.html, origin), weight, mockMeta(origin));
    for (const [source, name] of page.images) site.set(name, readFileSync(join(ROOT, source)));
  }
  addPage('tools.html', 'MCP tools', toolsPageBody(loadTools(), absentTools(), bundles.v2), 1.5);
  addPage('assumptions.html', 'Assumed choices', assumptionsPageBody(bundles), 0.5);
  const references = await Promise.all(
    API_NAMES.map((api) => buildReferencePage(api, API_TITLES[api], bundles[api], resolveSeed, names)),
  );
  API_NAMES.forEach((api, i) => {
    site.set(`${api}.html`, references[i] ?? '');
    site.set(contractFile(api), `${JSON.stringify(bundles[api], null, 2)}\n`);
    docs.push(...operationDocs(api, bundles[api]));
  });

  site.set('assets/site.css', asset('site.css'));
  site.set('assets/search.js', asset('search.js'));
  site.set('assets/nav.js', asset('nav.js'));
  site.set('assets/try-it.js', asset('try-it.js'));
  site.set('assets/minisearch.js', miniSearchBrowser());
  site.set('assets/search-index.js', searchIndexScript(docs));
  return site;
}

/** Writes a built site into `outDir`, replacing what was there. */
export async function writeDocsSite(site: Site, outDir = DOCS_SITE_DIR): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  for (const [name, content] of site) {
    await mkdir(dirname(join(outDir, name)), { recursive: true });
    await writeFile(join(outDir, name), content);
  }
}
