// The API reference pages: Redoc (the renderer Redocly's CLI ships, see docs/adr-0003) over a copy of
// each bundled contract prepared for readers — the seed citation as a "Source" line, code samples
// from httpsnippet, a "Try it" form — inside the site's own header, with no request to any other host.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiName } from '../paths.ts';
import { redocly } from '../redocly.ts';
import { HTTP_METHODS, type Node, operations } from '../spec-walk.ts';
import { siteHref } from './markdown.ts';
import { bodyAssets, headAssets, siteHeader } from './nav.ts';
import { type SeedCitation, type SeedSection, sourceLine } from './provenance.ts';
import { codeSamples, type ExampleRequest, exampleRequest } from './samples.ts';

export interface Operation {
  api: ApiName;
  method: string;
  path: string;
  operation: Node;
}

/** Every operation under `paths` of a bundled spec, in document order. */
export function operationsOf(api: ApiName, spec: Node): Operation[] {
  return operations(spec).map(({ method, path, operation }) => ({ api, method, path, operation }));
}

/** Redoc's route of an operation: `#/<tag, lower case, hyphens>/<operationId, lower case>`. */
export function operationHref(api: ApiName, operation: Node): string {
  const tag = String(operation.tags?.[0] ?? '')
    .toLowerCase()
    .replaceAll(' ', '-');
  return `${api}.html#/${tag}/${String(operation.operationId).toLowerCase()}`;
}

/**
 * The page names the address its contract gives for the running mock; the mock, when it serves the
 * page, puts the address it was reached at in its place and `content` becomes `live`
 * (`mock/http/docs.ts`, which reads this tag as it is written here). The home page carries it too.
 */
export const mockMeta = (origin: string) =>
  `<meta name="lmskit-mock" content="static" data-origin="${origin}">`;

const tryItPlaceholder = (operationId: string) =>
  `<div class="lmskit-try" data-operation="${operationId}"></div>`;

/** What the "Try it" forms of a page need: each operation's example request. */
export interface TryItData {
  api: ApiName;
  operations: Record<string, ExampleRequest>;
}

/** A markdown link: `[words](href)` or `[words](href "title")`, not an image. */
const MARKDOWN_LINK = /(?<!!)\[([^\]]+)\]\(([^)\s]+)(\s+"[^"]*")?\)/g;

/**
 * The links of a description of the contract's root file, written for the repository
 * (`../../docs/requirements/seed-001-integration-rest-api.md`), as links to the site's pages; a link
 * to a file the site lacks keeps its words.
 */
export function siteLinks(api: ApiName, text: string, sitePages: ReadonlySet<string>): string {
  const source = `openapi/${api}/openapi.yaml`;
  return text.replace(MARKDOWN_LINK, (_link, words: string, href: string, title = '') => {
    const target = siteHref(source, href, sitePages);
    return target === undefined ? words : `[${words}](${target}${title})`;
  });
}

/**
 * The copy of a bundled contract the reference renders: descriptions followed by their "Source"
 * line, and every operation with its code samples and the place of its "Try it" form. The links of
 * the introduction and the tags (written in the root file, for the repository) lead to the site's
 * pages (`sitePages`).
 */
export function readerSpec(
  api: ApiName,
  bundle: Node,
  resolveSeed: (citation: string) => SeedSection,
  sitePages: ReadonlySet<string>,
): { spec: Node; tryIt: TryItData } {
  const spec = structuredClone(bundle);
  if (typeof spec.info?.description === 'string')
    spec.info.description = siteLinks(api, spec.info.description, sitePages);
  for (const tag of (spec.tags ?? []) as Node[])
    if (typeof tag.description === 'string') tag.description = siteLinks(api, tag.description, sitePages);
  const tryIt: TryItData = { api, operations: {} };
  const withSource = (node: Node, ...extra: string[]) => {
    node.description = [node.description, sourceLine(node['x-seed'] as SeedCitation, resolveSeed), ...extra]
      .filter(Boolean)
      .join('\n\n');
  };
  for (const { method, path, operation } of operationsOf(api, spec)) {
    const request = exampleRequest(api, spec, path, method);
    operation['x-codeSamples'] = codeSamples(request);
    tryIt.operations[operation.operationId] = request;
    withSource(operation, tryItPlaceholder(operation.operationId));
  }
  for (const item of Object.values((spec.webhooks ?? {}) as Record<string, Node>))
    for (const method of HTTP_METHODS) if (item[method]) withSource(item[method]);
  // Schemas and other components that cite a seed section show it too.
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    if (!Array.isArray(node) && (node as Node)['x-seed']) withSource(node as Node);
    for (const child of Object.values(node)) visit(child);
  };
  visit(spec.components);
  return { spec, tryIt };
}

/** Where the site keeps an API's bundled contract, for download. */
export const contractFile = (api: ApiName) => `openapi/${api}.json`;

/** Where the header, the try-it data and the site's scripts go in the page Redocly writes. */
const SLOT = { header: '<!--lmskit:header-->', tail: '<!--lmskit:tail-->' };

const TEMPLATE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{{title}} · lmskit</title>
  ${SLOT.header}
  {{{redocHead}}}
</head>
<body class="lmskit-reference">
  {{{redocHTML}}}
  ${SLOT.tail}
</body>
</html>
`;

const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

/** JSON inside a `<script>` element: `<` escaped so no string in it can end the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

/**
 * One API's reference page: Redocly's prerendered Redoc (its script inlined, telemetry off) over
 * the reader's copy of the contract, inside the site's header, with the "Try it" script.
 */
export async function buildReferencePage(
  api: ApiName,
  title: string,
  bundle: Node,
  resolveSeed: (citation: string) => SeedSection,
  sitePages: ReadonlySet<string>,
): Promise<string> {
  const { spec, tryIt } = readerSpec(api, bundle, resolveSeed, sitePages);
  const dir = await mkdtemp(join(tmpdir(), 'lmskit-docs-'));
  try {
    const input = join(dir, `${api}.json`);
    const template = join(dir, 'page.hbs');
    const out = join(dir, `${api}.html`);
    const options = join(dir, 'redoc.json');
    await writeFile(input, JSON.stringify(spec));
    await writeFile(template, TEMPLATE);
    // The download button offers the contract itself, not this copy made for the page.
    await writeFile(
      options,
      JSON.stringify({ downloadUrls: [{ title: 'OpenAPI 3.1 (JSON)', url: contractFile(api) }] }),
    );
    const args = ['build-docs', input, '-o', out, '--template', template, '--title', title, '--inlineBundle'];
    args.push('--openapi', options);
    const { code, stderr } = await redocly(args);
    if (code !== 0) throw new Error(`redocly build-docs ${api} failed: ${stderr.trim()}`);
    const origin = new URL(spec.servers[0].url).origin;
    const page = (await readFile(out, 'utf8'))
      // Redoc fetches its "API docs by" logo from a CDN at run time; an empty image keeps the page offline.
      .replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g, EMPTY_SVG)
      .replace('"disableTelemetry":false', '"disableTelemetry":true')
      .replace(SLOT.header, () => `${mockMeta(origin)}\n  ${headAssets()}`)
      .replace(
        '<body class="lmskit-reference">',
        () => `<body class="lmskit-reference">\n${siteHeader(`${api}.html`)}`,
      )
      .replace(
        SLOT.tail,
        () =>
          `<script type="application/json" id="lmskit-try-data">${scriptJson(tryIt)}</script>\n` +
          `<script src="assets/try-it.js" defer></script>\n${bodyAssets()}`,
      );
    if (/<(script|link)[^>]+(src|href)="https?:/.test(page) || page.includes('"disableTelemetry":false'))
      throw new Error(`the ${api} page loads from another host or sends telemetry`);
    return page;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
