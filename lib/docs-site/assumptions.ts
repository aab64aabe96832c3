// The assumed-choices page: every `x-assumed` mark of the contracts and the tools, grouped by API and
// operation, each with its one-sentence description and a link to where the reference shows it.
import { marked } from 'marked';
import { escapeHtml as html } from '../html.ts';
import type { ApiName } from '../paths.ts';
import type { Node } from '../spec-walk.ts';
import type { ToolDefinition } from '../tool-schemas.ts';
import { operationHref, operationsOf } from './reference.ts';

export interface Assumption {
  /** JSON pointer segments of the marked object. */
  at: string[];
  description: string;
}

/**
 * Every `x-assumed: true` (and `x-assumed-closed`, `x-assumed-bound`) in a document, with the description
 * next to it; and every `x-assumed: "<sentence>"`, a choice about a node that stays documented
 * (openapi/README.md), with its sentence.
 */
export function collectAssumptions(node: unknown, at: string[] = []): Assumption[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => collectAssumptions(v, [...at, String(i)]));
  if (!node || typeof node !== 'object') return [];
  const obj = node as Node;
  const own =
    typeof obj['x-assumed'] === 'string'
      ? [{ at, description: obj['x-assumed'] }]
      : obj['x-assumed'] === true || obj['x-assumed-closed'] === true || obj['x-assumed-bound'] === true
        ? [{ at, description: String(obj.description ?? obj.summary ?? '') }]
        : [];
  return [...own, ...Object.entries(obj).flatMap(([k, v]) => collectAssumptions(v, [...at, k]))];
}

const KIND: Record<string, string> = {
  schemas: 'Schema',
  responses: 'Response',
  parameters: 'Parameter',
  examples: 'Example',
  headers: 'Header',
  requestBodies: 'Request body',
};

/** A reader's name for the part of an operation or component the mark sits on. */
function partLabel(segments: string[], owner: Node): string {
  const parts: string[] = [];
  const fields: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const key = segments[i] ?? '';
    const next = segments[i + 1] ?? '';
    if (key === 'properties' && next) {
      fields.push(next);
      i++;
    } else if (key === 'parameters' && next) {
      parts.push(`parameter \`${owner.parameters?.[Number(next)]?.name ?? next}\``);
      i++;
    } else if (key === 'responses' && next) {
      parts.push(`response ${next}`);
      i++;
    } else if (key === 'headers' && next) {
      parts.push(`header \`${next}\``);
      i++;
    } else if (key === 'requestBody') parts.push('request body');
    else if (key === 'items') fields.push('[]');
  }
  if (fields.length) parts.push(`field \`${fields.join('.').replaceAll('.[]', '[]')}\``);
  return parts.join(', ');
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Every component a node refers to, directly or through other components (`schemas/Course`, ...). */
function componentsUsedBy(spec: Node, node: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (n: unknown) => {
    if (!n || typeof n !== 'object') return;
    const ref = (n as Node).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/')) {
      const key = ref.slice('#/components/'.length);
      if (!found.has(key)) {
        found.add(key);
        const [kind, name] = key.split('/');
        walk(spec.components?.[kind ?? '']?.[name ?? '']);
      }
    }
    for (const child of Object.values(n)) walk(child);
  };
  walk(node);
  return found;
}

interface Target {
  /** Heading shown for the group, e.g. `GET /courses — List courses`. */
  title: string;
  href: string;
  operationId: string;
  choices: { label: string; description: string }[];
}

/** Inline markdown, as the contracts write their descriptions. */
const md = (text: string) => marked.parseInline(text, { async: false });

const item = (c: { label: string; description: string }) =>
  `<li><strong>${md(capitalise(c.label))}</strong>: ${md(c.description)}</li>`;

const opLink = (t: Target) =>
  `<a href="${html(t.href)}" data-operation="${html(t.operationId)}">${html(t.title)}</a>`;

/** One API's section of the page. */
export function apiAssumptions(api: ApiName, title: string, spec: Node): string {
  const targets = new Map<string, Target>();
  const uses = new Map<string, Target[]>();
  const add = (key: string, target: Target, node: Node) => {
    targets.set(key, target);
    for (const component of componentsUsedBy(spec, node))
      uses.set(component, [...(uses.get(component) ?? []), target]);
  };
  for (const { method, path, operation } of operationsOf(api, spec)) {
    add(
      `paths/${path}/${method}`,
      {
        title: `${method.toUpperCase()} ${path} — ${operation.summary}`,
        href: operationHref(api, operation),
        operationId: operation.operationId,
        choices: [],
      },
      operation,
    );
  }
  for (const [name, webhook] of Object.entries((spec.webhooks ?? {}) as Record<string, Node>)) {
    const operation = webhook.post ?? Object.values(webhook)[0];
    add(
      `webhooks/${name}/post`,
      {
        title: `Webhook ${name} — ${operation.summary}`,
        href: `${api}.html#/webhooks/${name.toLowerCase()}`,
        operationId: name,
        choices: [],
      },
      operation,
    );
  }
  const shared = new Map<string, { label: string; description: string }[]>();
  for (const a of collectAssumptions(spec)) {
    const [root, first = '', second = '', ...rest] = a.at;
    if (root === 'paths' || root === 'webhooks') {
      const target = targets.get(`${root}/${first}/${second}`);
      const owner = spec[root][first][second];
      target?.choices.push({ label: partLabel(rest, owner) || 'the operation', description: a.description });
    } else if (root === 'components') {
      const owner = spec.components[first][second];
      const label = [`${KIND[first] ?? first} \`${second}\``, partLabel(rest, owner)]
        .filter(Boolean)
        .join(', ');
      const users = uses.get(`${first}/${second}`) ?? [];
      // A component of one operation reads best under it; one shared by several is listed once.
      if (users.length === 1) users[0]?.choices.push({ label, description: a.description });
      else
        shared.set(`${first}/${second}`, [
          ...(shared.get(`${first}/${second}`) ?? []),
          { label, description: a.description },
        ]);
    }
  }
  const operations = [...targets.values()]
    .filter((t) => t.choices.length)
    .map(
      (t) => `<section class="assumption">
<h3 id="${html(`${api}-${t.operationId.toLowerCase()}`)}">${opLink(t)}</h3><ul>${t.choices.map(item).join('')}</ul></section>`,
    );
  const common = [...shared.entries()].map(([key, choices]) => {
    const users = uses.get(key) ?? [];
    return `<section class="assumption shared"><ul>${choices.map(item).join('')}</ul>
<p class="lmskit-used-by">${users.length ? `Used by ${users.map(opLink).join(', ')}.` : 'Used by no operation.'}</p></section>`;
  });
  return `<h2 id="${api}">${html(title)}</h2>
${operations.join('\n')}
${common.length ? `<h3 id="${api}-shared">Shared by several operations</h3>\n${common.join('\n')}` : ''}`;
}

/** The tools' section: choices inside each tool's schemas, and scopes the seed does not state. */
export function toolAssumptions(tools: ToolDefinition[]): string {
  const sections = tools.flatMap((tool) => {
    const choices = collectAssumptions(tool).map((a) => {
      const [part = '', ...rest] = a.at;
      const base = part === 'inputSchema' ? 'arguments' : part === 'outputSchema' ? 'result' : part;
      const inner = partLabel(rest, {}).replace(/^field/, base === 'arguments' ? 'argument' : 'field');
      return { label: [base, inner].filter(Boolean).join(', '), description: a.description };
    });
    if ((tool as unknown as Node)['x-assumed-scope'])
      choices.push({
        label: 'scope',
        description: `The seed does not state the scope of this tool; the kit requires \`${tool['x-scope']}\`.`,
      });
    if (tool['x-assumed-ai-quota'])
      choices.push({
        label: 'AI quota',
        description:
          'The seed counts generation and refinement calls against the AI quota; this tool is neither, and the kit does not count it.',
      });
    if (!choices.length) return [];
    return [
      `<section class="assumption"><h3 id="tool-${html(tool.name)}"><a href="tools.html#${html(tool.name)}">${html(tool.name)}</a></h3>
<ul>${choices.map(item).join('')}</ul></section>`,
    ];
  });
  return `<h2 id="tools">MCP tools</h2>\n${sections.join('\n')}`;
}
