// The tools page, generated from mcp-schema/: per tool what it does, who may call it, its
// parameters, an example call and its result, and the backend operations it makes.
import { marked } from 'marked';
import { escapeHtml as html } from '../html.ts';
import { type Node, resolveRef } from '../spec-walk.ts';
import type { BackendCall, ToolDefinition } from '../tool-schemas.ts';
import { operationHref } from './reference.ts';
import { firstExample, schemaExample } from './samples.ts';

/** A v2 operation by id, with the parameters of its path item merged in. */
function operationById(v2: Node, operationId: string): Node {
  for (const item of Object.values(v2.paths as Record<string, Node>))
    for (const operation of Object.values(item))
      if (operation?.operationId === operationId)
        return { ...operation, parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])] };
  throw new Error(`v2 has no operation ${operationId}`);
}

const getPath = (value: unknown, dotted: string) =>
  dotted
    .split('.')
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Node)[k] : undefined), value);

/** The calls an example makes: every unconditional one, and of the conditional ones (`when`) the first. */
function exampleCalls(tool: ToolDefinition): BackendCall[] {
  const firstConditional = tool['x-backend'].find((c) => c.when);
  return tool['x-backend'].filter((c) => !c.when || c === firstConditional);
}

/** Where an example file path points; the tool server reads the file there. */
const EXAMPLE_FILE = '/home/you/handbook.pdf';

export interface ToolExample {
  arguments: Record<string, unknown>;
  result: unknown;
}

/**
 * An example call of a tool and its result, taken from the examples of the backend operations it
 * maps onto (`x-backend`): each argument is the example of the parameter or body field it is sent
 * as, and the result is the example answer of the last call (per item for `bulk_assign`, marked assigned).
 */
export function toolExample(tool: ToolDefinition, v2: Node): ToolExample {
  const args: Record<string, unknown> = {};
  const calls = exampleCalls(tool);
  for (const call of calls) {
    const operation = operationById(v2, call.operationId);
    const params = (operation.parameters ?? []).map((p: Node) => firstParam(v2, p));
    const media = bodyExample(v2, operation, call);
    for (const [argument, wire] of Object.entries(call.args)) {
      if (args[argument] !== undefined) continue;
      let value: unknown;
      if (wire.in === 'path' || wire.in === 'query')
        value = params.find((p: Node) => p.name === wire.name)?.example;
      else if (wire.as === 'file') value = EXAMPLE_FILE;
      else value = getPath(media, wire.name);
      if (wire.wrap === 'array' && Array.isArray(value)) value = value[0];
      if (call.each === argument && value !== undefined) value = [value];
      if (value !== undefined) args[argument] = value;
    }
  }
  const input = tool.inputSchema;
  for (const name of input.required ?? [])
    if (args[name] === undefined) args[name] = schemaExample(input, input.properties?.[name]);
  const last = calls.at(-1);
  const answer = last ? successExample(v2, operationById(v2, last.operationId)) : undefined;
  const perItem = tool['x-backend'].some((c) => c.each);
  // bulk_assign's result per course is the call's answer marked with its outcome (its outputSchema).
  const item = { ...(answer as Record<string, unknown>), outcome: 'assigned' };
  return { arguments: args, result: perItem ? { groupId: args.groupId, results: [item] } : answer };
}

/** Of a request body's examples, the one that carries most of the fields the call sends. */
function bodyExample(v2: Node, operation: Node, call: BackendCall): unknown {
  const body = resolveRef(v2, operation.requestBody);
  const media = Object.values((body?.content ?? {}) as Record<string, Node>)[0];
  const fields = Object.values(call.args).filter((a) => a.in === 'body');
  const named = Object.values((media?.examples ?? {}) as Record<string, Node>).map(
    (e) => resolveRef(v2, e)?.value,
  );
  const score = (value: unknown) => fields.filter((f) => getPath(value, f.name) !== undefined).length;
  return named.length
    ? named.reduce((best, e) => (score(e) > score(best) ? e : best))
    : firstExample(v2, media);
}

/** A parameter with its example, `$ref`s followed. */
function firstParam(v2: Node, param: Node): Node {
  const p = resolveRef(v2, param) ?? {};
  return { name: p.name, example: firstExample(v2, p) };
}

function successExample(v2: Node, operation: Node): unknown {
  const [, response] =
    Object.entries((operation.responses ?? {}) as Record<string, Node>).find(([code]) =>
      code.startsWith('2'),
    ) ?? [];
  return firstExample(v2, response?.content?.['application/json']);
}

function describeSchema(schema: Node): string {
  const parts: string[] = [];
  const type = schema.type ?? (schema.enum ? 'enum' : '');
  if (type === 'array') parts.push(`${String(schema.items?.type ?? 'any')}[]`);
  else parts.push(String(type));
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

const json = (value: unknown) => `<pre><code>${html(JSON.stringify(value, null, 2))}</code></pre>`;

function toolSection(tool: ToolDefinition, v2: Node): string {
  const input = tool.inputSchema;
  const required = new Set(input.required ?? []);
  const rows = Object.entries(input.properties ?? {})
    .map(
      ([name, schema]) =>
        `<tr><td><code>${html(name)}</code>${schema['x-assumed'] ? ' <span class="tag">assumed name</span>' : ''}</td>` +
        `<td>${required.has(name) ? 'yes' : 'no'}</td><td>${describeSchema(schema)}</td><td>${marked.parseInline(String(schema.description ?? ''), { async: false })}</td></tr>`,
    )
    .join('\n');
  const oneOf = Array.isArray(input.oneOf)
    ? `<p>Exactly one of: ${(input.oneOf as { required: string[] }[]).map((s) => `<code>${html(s.required.join(', '))}</code>`).join(' or ')}.</p>`
    : '';
  const licence = tool['x-licence'];
  const calls = tool['x-backend']
    .map((c) => {
      const operation = operationById(v2, c.operationId);
      const when = [
        c.each && `once per item of <code>${html(c.each)}</code>`,
        c.when && `when <code>${html(c.when)}</code> is given`,
      ]
        .filter(Boolean)
        .join(', ');
      return `<a class="lmskit-backend" href="${html(operationHref('v2', operation))}" data-operation="${html(c.operationId)}"><code>${html(c.method)} /api/v2${html(c.path)}</code></a> ${html(operation.summary)}${when ? ` (${when})` : ''}`;
    })
    .join(', then ');
  const hints = Object.entries(tool.annotations)
    .map(([k, v]) => `<span class="tag">${html(k)}: ${html(v)}</span>`)
    .join('');
  const example = toolExample(tool, v2);
  return `<section class="tool" data-tool="${html(tool.name)}">
<h2 id="${html(tool.name)}"><code>${html(tool.name)}</code> — ${html(tool.title)}</h2>
<p class="lmskit-hints"><span class="tag">${html(tool['x-category'])}</span>${hints}</p>
${marked.parse(tool.description, { async: false })}
<table class="lmskit-access"><tr><th>Scope</th><td><code>${html(tool['x-scope'])}</code></td></tr>
<tr><th>Permission</th><td>${tool['x-permission'] ? `<code>${html(tool['x-permission'])}</code>` : 'none (any role)'}${tool['x-rules'].length ? `, plus ${tool['x-rules'].map(html).join(', ')}` : ''}</td></tr>
<tr><th>Licence</th><td><code>mcpAccess</code> ${html(licence.mcpAccess)} or higher${licence.mcpAiAccess ? ', and <code>mcpAiAccess</code>' : ''}</td></tr>
<tr><th>AI quota</th><td>${tool['x-ai-quota'] ? 'counts: 5 calls per key and 50 per tenant per day' : 'does not count'}</td></tr>
<tr><th>Backend</th><td>${calls}</td></tr></table>
<h3>Parameters</h3>
${rows ? `<table><tr><th>Name</th><th>Required</th><th>Type and limits</th><th>Description</th></tr>\n${rows}</table>` : '<p>None.</p>'}
${oneOf}
<div class="lmskit-example"><div><h3>Example arguments</h3>${json(example.arguments)}</div>
<div><h3>Example result</h3>${json(example.result)}</div></div>
</section>`;
}

export function toolsPageBody(
  tools: ToolDefinition[],
  absentTools: { name: string; reason: string }[],
  v2: Node,
): string {
  const summary = tools
    .map(
      (t) =>
        `<tr><td><a href="#${html(t.name)}"><code>${html(t.name)}</code></a></td><td>${html(t.title)}</td><td>${html(t['x-category'])}</td>` +
        `<td>${html(t['x-scope'])}</td><td>${html(t['x-permission'] ?? '—')}</td></tr>`,
    )
    .join('\n');
  const absent = absentTools.map((a) => `<li><code>${html(a.name)}</code>: ${html(a.reason)}</li>`).join('');
  return `<h1 id="mcp-tools">The ${tools.length} MCP tools</h1>
<p>The tools an AI agent calls through the <a href="mcp.html">MCP tool server</a>, over stdio or Streamable HTTP.
Each tool calls one or more operations of the <a href="v2.html">MCP backend API</a> with the agent's MCP key and
acts with the permissions of the key's owner; an agent is offered only the tools its key's scope, its owner's
permissions and the tenant's licence allow. Each section below says who may call the tool, its parameters, and an
example call with its result, taken from the examples of the backend operations it calls.</p>
<p>The requirements are the platform's <a href="seed-000-mcp-tool-interface.html">MCP tool interface document</a>
("seed 000"). Where it is silent, a tool still chooses (a parameter it does not name is marked
<span class="tag">assumed name</span>), and the <a href="assumptions.html#tools">assumed choices</a> list every such
choice. The tool server lists these tools as they are written in
<code>mcp-schema/</code>, one JSON Schema file each.</p>
<table><tr><th>Tool</th><th>What it does</th><th>Category</th><th>Scope</th><th>Permission</th></tr>
${summary}</table>
<h2 id="announced-but-absent">Announced but absent</h2><ul>${absent}</ul>
${tools.map((t) => toolSection(t, v2)).join('\n')}`;
}
