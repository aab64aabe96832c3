// `GET /`: what this mock serves and where, for someone who opens its address first. JSON for
// tools and curl; a small HTML page of the same links when a browser asks for HTML. Links are
// relative to the mock's root, so they hold behind any host or port.
import type { Request, Response } from 'express';
import { escapeHtml } from '../../lib/html.ts';
import { APIS } from './apis.ts';

export interface IndexOptions {
  version: string;
  /** Whether /docs/ is served (the installed package does not build the site). */
  docs: boolean;
}

export function indexOf({ version, docs }: IndexOptions) {
  const reference = (page: string) => (docs ? `/docs/${page}` : null);
  return {
    name: 'lmskit mock',
    version,
    apis: APIS.map((api) => ({
      name: api.title,
      base: api.prefix,
      auth: `${api.auth.header}: ${api.auth.value}`,
      reference: reference(`${api.name}.html`),
    })),
    docs: docs ? '/docs/' : null,
    tools: reference('tools.html'),
    health: '/__admin/health',
  };
}

export function sendIndex(options: IndexOptions) {
  const index = indexOf(options);
  const link = (href: string | null, text: string) =>
    href ? `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>` : escapeHtml(text);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lmskit mock</title></head>
<body><h1>lmskit mock ${escapeHtml(index.version)}</h1><ul>
${index.apis.map((a) => `<li>${link(a.reference, a.name)}: <code>${escapeHtml(a.base)}</code>, ${escapeHtml(a.auth)}</li>`).join('\n')}
<li>${link(index.docs, 'Docs')}${index.tools ? `, ${link(index.tools, 'MCP tools')}` : ''}</li>
<li>${link(index.health, 'Health')}</li>
</ul></body></html>`;
  return (req: Request, res: Response) => {
    if (req.accepts(['json', 'html']) === 'html') res.type('html').send(html);
    else res.json(index);
  };
}
