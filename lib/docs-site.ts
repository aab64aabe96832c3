// Builds the static docs site: one Redoc page per API, a page for the MCP tools generated from
// mcp-schema/, a page listing every assumed choice, and the hand-written guides of docs/ — all
// self-contained, so the site works from disk with no network.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { marked } from 'marked';
import { escapeHtml } from './html.ts';
import { API_NAMES, type ApiName, bundlePath, DOCS_SITE_DIR, ROOT } from './paths.ts';
import { buildApiPage } from './redocly.ts';
import { loadToolIndex, loadTools, type ToolDefinition } from './tool-schemas.ts';

export { DOCS_SITE_DIR };

export const API_TITLES: Record<ApiName, string> = {
  v1: 'Integration REST API (v1)',
  v2: 'MCP backend API (v2)',
  admin: 'Mock admin API',
};

const html = escapeHtml;

const STYLE = `
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d2230; }
  header { background: #1d2a4d; color: #fff; padding: .6rem 1.5rem; display: flex; gap: 1.2rem; flex-wrap: wrap; }
  header a { color: #fff; text-decoration: none; } header a:hover { text-decoration: underline; }
  header strong { margin-right: 1rem; }
  main { max-width: 70rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
  table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
  th, td { border: 1px solid #d6dae3; padding: .3rem .5rem; text-align: left; vertical-align: top; }
  th { background: #f2f4f8; }
  code { background: #f2f4f8; padding: 0 .2rem; border-radius: 3px; }
  pre { background: #f2f4f8; padding: .6rem; overflow: auto; }
  section.tool { border-top: 2px solid #d6dae3; margin-top: 1.5rem; }
  .tag { display: inline-block; padding: 0 .4rem; border-radius: 3px; background: #e3e8f4; margin-right: .3rem; font-size: 90%; }
`;

function shell(title: string, body: string): string {
  const links = [
    ['index.html', 'Guide'],
    ...API_NAMES.map((api) => [`${api}.html`, API_TITLES[api]]),
    ['tools.html', 'MCP tools'],
    ['assumptions.html', 'Assumed choices'],
  ]
    .map(([href, text]) => `<a href="${href}">${html(text)}</a>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)} · lmskit</title><style>${STYLE}</style></head>
<body><header><strong>lmskit</strong>${links}</header><main>
${body}
</main></body></html>
`;
}

function describeSchema(schema: Record<string, unknown>): string {
  const parts: string[] = [];
  const type = schema.type ?? (schema.enum ? 'enum' : '');
  if (type === 'array') {
    const items = (schema.items ?? {}) as Record<string, unknown>;
    parts.push(`${String(items.type ?? 'any')}[]`);
  } else parts.push(String(type));
  if (schema.enum)
    parts.push(`one of ${(schema.enum as unknown[]).map((v) => `<code>${html(v)}</code>`).join(', ')}`);
  if (schema.default !== undefined) parts.push(`default ${html(JSON.stringify(schema.default))}`);
  if (schema.minimum !== undefined) parts.push(`min ${html(schema.minimum)}`);
  if (schema.maximum !== undefined) parts.push(`max ${html(schema.maximum)}`);
  if (schema.minItems !== undefined) parts.push(`at least ${html(schema.minItems)} item(s)`);
  if (schema.minLength !== undefined) parts.push(`min length ${html(schema.minLength)}`);
  if (schema.maxLength !== undefined) parts.push(`max length ${html(schema.maxLength)}`);
  if (schema.pattern !== undefined) parts.push(`pattern <code>${html(schema.pattern)}</code>`);
  return parts.join(', ');
}

function toolSection(tool: ToolDefinition): string {
  const input = tool.inputSchema;
  const required = new Set(input.required ?? []);
  const rows = Object.entries(input.properties ?? {})
    .map(
      ([name, schema]) =>
        `<tr><td><code>${html(name)}</code>${schema['x-assumed'] ? ' <span class="tag">assumed name</span>' : ''}</td>` +
        `<td>${required.has(name) ? 'yes' : 'no'}</td><td>${describeSchema(schema)}</td><td>${html(schema.description ?? '')}</td></tr>`,
    )
    .join('\n');
  const oneOf = Array.isArray(input.oneOf)
    ? `<p>Exactly one of: ${(input.oneOf as { required: string[] }[]).map((s) => `<code>${html(s.required.join(', '))}</code>`).join(' or ')}.</p>`
    : '';
  const licence = tool['x-licence'];
  const calls = tool['x-backend']
    .map(
      (c) =>
        `<code>${html(c.method)} /api/v2${html(c.path)}</code> (${html(c.operationId)}${c.each ? `, once per item of ${html(c.each)}` : ''}${c.when ? `, when ${html(c.when)} is given` : ''})`,
    )
    .join(', then ');
  const hints = Object.entries(tool.annotations)
    .map(([k, v]) => `<span class="tag">${html(k)}: ${html(v)}</span>`)
    .join('');
  return `<section class="tool" id="${html(tool.name)}" data-tool="${html(tool.name)}">
<h2><code>${html(tool.name)}</code> — ${html(tool.title)}</h2>
<p><span class="tag">${html(tool['x-category'])}</span>${hints}</p>
${marked.parse(tool.description, { async: false })}
<table><tr><th>Scope</th><td><code>${html(tool['x-scope'])}</code></td></tr>
<tr><th>Permission</th><td>${tool['x-permission'] ? `<code>${html(tool['x-permission'])}</code>` : 'none (any role)'}${tool['x-rules'].length ? `, plus ${tool['x-rules'].map(html).join(', ')}` : ''}</td></tr>
<tr><th>Licence</th><td><code>mcpAccess</code> ${html(licence.mcpAccess)} or higher${licence.mcpAiAccess ? ', and <code>mcpAiAccess</code>' : ''}</td></tr>
<tr><th>AI quota</th><td>${tool['x-ai-quota'] ? 'counts: 5 calls per key and 50 per tenant per day' : 'does not count'}</td></tr>
<tr><th>Backend</th><td>${calls}</td></tr></table>
<h3>Parameters</h3>
${rows ? `<table><tr><th>Name</th><th>Required</th><th>Type and limits</th><th>Description</th></tr>\n${rows}</table>` : '<p>None.</p>'}
${oneOf}
</section>`;
}

function toolsPage(): string {
  const tools = loadTools();
  const index = loadToolIndex();
  const summary = tools
    .map(
      (t) =>
        `<tr><td><a href="#${html(t.name)}"><code>${html(t.name)}</code></a></td><td>${html(t['x-category'])}</td>` +
        `<td>${html(t['x-scope'])}</td><td>${html(t['x-permission'] ?? '—')}</td></tr>`,
    )
    .join('\n');
  const absent = index.absent.map((a) => `<li><code>${html(a.name)}</code>: ${html(a.reason)}</li>`).join('');
  return shell(
    'MCP tools',
    `<h1>The ${tools.length} MCP tools</h1>
<p>Generated from <code>mcp-schema/</code>, the same files the tool server serves verbatim. An agent is offered only
the tools its key's scope, its owner's permissions and the tenant's licence allow.</p>
<table><tr><th>Tool</th><th>Category</th><th>Scope</th><th>Permission</th></tr>
${summary}</table>
<h2>Announced but absent</h2><ul>${absent}</ul>
${tools.map(toolSection).join('\n')}`,
  );
}

interface Assumption {
  where: string;
  description: string;
}

/** Every `x-assumed` (and `x-assumed-closed`) mark in a document, with the description next to it. */
export function collectAssumptions(node: unknown, path: string[] = []): Assumption[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => collectAssumptions(v, [...path, String(i)]));
  if (!node || typeof node !== 'object') return [];
  const obj = node as Record<string, unknown>;
  const own =
    obj['x-assumed'] === true || obj['x-assumed-closed'] === true
      ? [{ where: path.join('/') || '/', description: String(obj.description ?? obj.summary ?? '') }]
      : [];
  return [...own, ...Object.entries(obj).flatMap(([k, v]) => collectAssumptions(v, [...path, k]))];
}

async function assumptionsPage(): Promise<string> {
  const sections: string[] = [];
  for (const api of API_NAMES) {
    const spec = JSON.parse(await readFile(bundlePath(api), 'utf8'));
    const rows = collectAssumptions(spec)
      .map((a) => `<tr><td><code>${html(a.where)}</code></td><td>${html(a.description)}</td></tr>`)
      .join('\n');
    sections.push(
      `<h2>${html(API_TITLES[api])}</h2><table><tr><th>Where</th><th>Choice</th></tr>${rows}</table>`,
    );
  }
  const toolRows = loadTools()
    .flatMap((t) => collectAssumptions(t).map((a) => ({ ...a, where: `${t.name}/${a.where}` })))
    .map((a) => `<tr><td><code>${html(a.where)}</code></td><td>${html(a.description)}</td></tr>`)
    .join('\n');
  sections.push(`<h2>MCP tools</h2><table><tr><th>Where</th><th>Choice</th></tr>${toolRows}</table>`);
  return shell(
    'Assumed choices',
    `<h1>Assumed choices</h1>
<p>Where a seed says "not shown", the contracts still choose. Each such choice is marked <code>x-assumed: true</code>;
the conformance suite checks these only at level SHOULD. This list is generated from the contracts.</p>
${sections.join('\n')}`,
  );
}

/** The hand-written guides of docs/*.md, each as a page; `guide.md` is the index. */
async function guidePages(): Promise<Map<string, string>> {
  const pages = new Map<string, string>();
  const docsDir = join(ROOT, 'docs');
  for (const file of (await readdir(docsDir)).filter((f) => f.endsWith('.md')).sort()) {
    const markdown = await readFile(join(docsDir, file), 'utf8');
    // The guides link to files of the repository (so they read well there too); on the site those
    // links go to the pages made from the same files.
    const html = (marked.parse(markdown, { async: false }) as string)
      .replace(/href="\.\.\/openapi\/(v1|v2|admin)\/openapi\.yaml"/g, 'href="$1.html"')
      .replace(/href="\.\.\/mcp-schema\/README\.md"/g, 'href="tools.html"')
      .replace(/href="([\w-]+)\.md(#[\w-]*)?"/g, 'href="$1.html$2"');
    const title = /^#\s+(.+)$/m.exec(markdown)?.[1] ?? file;
    const name = file === 'guide.md' ? 'index.html' : file.replace(/\.md$/, '.html');
    pages.set(name, shell(title, html));
  }
  return pages;
}

/** Writes the whole site into `outDir` and returns the page names. */
export async function buildDocsSite(outDir = DOCS_SITE_DIR): Promise<string[]> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const pages = await guidePages();
  for (const api of API_NAMES) pages.set(`${api}.html`, await buildApiPage(api));
  pages.set('tools.html', toolsPage());
  pages.set('assumptions.html', await assumptionsPage());
  for (const [name, html] of pages) await writeFile(join(outDir, name), html);
  return [...pages.keys()].sort();
}
