// The contracts as Dredd 14 runs them: `lmskit export --for dredd` (scripts/export.ts), with
// tools/dredd/hooks.js (docs/conformance.md, "With Dredd"). Dredd 14.1.0, its last release (November
// 2021), loads the OpenAPI 3.1 contracts only with warnings, then sends each request once for every
// documented status, compares `Content-Type` as text, reads a parameter's `examples` as nothing and
// checks an answer against its example alone (docs/adr-0001-no-dredd.md). The export is the bundled
// contract as an OpenAPI 3.0.3 document with
// - schemas in 3.0's words: `type: [T, 'null']` → `type: T, nullable: true`, several types → `anyOf`,
//   a `{type: 'null'}` → 3.0.3's null-only schema, `const` → `enum`, a schema's `examples` → `example`,
//   numeric exclusive bounds → the boolean form; what 3.0 lacks (`if`/`then`/`else`,
//   `unevaluatedProperties`, a `$ref`'s siblings, ...) and every `x-` extension dropped. A schema
//   3.0 cannot say is loosened, never tightened: whatever the contract accepts, the export accepts;
// - one example each: a parameter's or a media type's `examples` become its first one as `example`;
// - one response each: the operation's first 2xx, without headers, JSON as
//   `application/json; charset=utf-8` (what the mock, through Express, sends); and with the contract's
//   own schema of that answer as JSON Schema draft-07 (`x-dredd-body-schema`), which the hooks hand to
//   Dredd, since it takes no schema from an OpenAPI 3 document;
// - the plan of each API (`DREDD_PLANS`): an order, and demo records where the contract's examples name
//   none, in which every operation succeeds on a fresh demo tenant; what only an earlier answer can
//   give; the one upload; and what cannot run (`x-dredd-skipped`, with the reason);
// - no webhooks, and only the components still referred to.

import { DREDD_PLANS, type DreddApi, type DreddPlan, MOCK_JSON_CONTENT_TYPE } from './dredd/plans.ts';
import {
  BODY_SCHEMA,
  DEFINITIONS_POINTER,
  JSON_SCHEMA_ROOT,
  schemaTo30,
  schemaToDraft07,
} from './dredd/schemas.ts';
import { HTTP_METHODS, type Node, operations, resolveRef } from './spec-walk.ts';

export * from './dredd/plans.ts';
export { BODY_SCHEMA, JSON_SCHEMA_ROOT, NULL_ONLY, schemaTo30, schemaToDraft07 } from './dredd/schemas.ts';

/** A parameter with one `example` (the first of `examples`, else its schema's). */
function parameterTo30(spec: Node, parameter: Node): Node {
  if (parameter.$ref) return { $ref: parameter.$ref };
  const out: Node = {};
  for (const [key, value] of Object.entries(parameter)) {
    if (key.startsWith('x-') || key === 'examples') continue;
    out[key] = key === 'schema' ? schemaTo30(value as Node) : value;
  }
  const example =
    firstExample(spec, parameter) ?? parameter.schema?.example ?? parameter.schema?.examples?.[0];
  if (example !== undefined) out.example = example;
  return out;
}

/** The node's own `example`, else the value of the first of its `examples` (a map of Example Objects). */
function firstExample(spec: Node, node: Node): unknown {
  if (node.example !== undefined) return node.example;
  const first = Object.values((node.examples ?? {}) as Node)[0] as Node | undefined;
  return first ? resolveRef(spec, first)?.value : undefined;
}

/**
 * A media type with its schema in 3.0's words and one `example`; an answer's also with the contract's
 * schema as JSON Schema draft-07 in `x-dredd-body-schema`, for the hooks to hand to Dredd.
 */
function mediaTypeTo30(spec: Node, media: Node, response: boolean): Node {
  const out: Node = {};
  if (media.schema) out.schema = schemaTo30(media.schema);
  const example = firstExample(spec, media);
  if (example !== undefined) out.example = example;
  if (response && media.schema) out[BODY_SCHEMA] = schemaToDraft07(media.schema);
  return out;
}

function contentTo30(spec: Node, content: Node | undefined, response: boolean): Node | undefined {
  if (!content) return undefined;
  return Object.fromEntries(
    Object.entries(content).map(([type, media]) => [
      response && type === 'application/json' ? MOCK_JSON_CONTENT_TYPE : type,
      mediaTypeTo30(spec, media as Node, response),
    ]),
  );
}

function requestBodyTo30(spec: Node, body: Node): Node {
  if (body.$ref) return { $ref: body.$ref };
  const out: Node = { ...stripExtensions(body) };
  out.content = contentTo30(spec, body.content, false);
  return out;
}

/** A response in 3.0's words: its content as the mock sends it, without headers. */
function responseTo30(spec: Node, response: Node): Node {
  const resolved = resolveRef(spec, response) ?? {};
  const out: Node = { description: resolved.description ?? '' };
  const content = contentTo30(spec, resolved.content, true);
  if (content) out.content = content;
  return out;
}

function stripExtensions(node: Node): Node {
  return Object.fromEntries(Object.entries(node).filter(([k]) => !k.startsWith('x-')));
}

/** The operation's first 2xx status, and that response alone. */
function successResponse(spec: Node, operation: Node): Node {
  const status = Object.keys(operation.responses ?? {})
    .filter((s) => /^2\d\d$/.test(s))
    .sort()[0];
  if (!status) throw new Error(`${operation.operationId} documents no 2xx response`);
  return { [status]: responseTo30(spec, operation.responses[status]) };
}

/**
 * An optional query parameter whose name is no plain word (v2's `fields[author]`): Dredd 14 cannot
 * expand a URI template with it (it reports the template ambiguous and drops the transaction), so the
 * export leaves the parameter out and Dredd sends the request without it.
 */
function unexpandable(spec: Node, parameter: Node): boolean {
  const p = resolveRef(spec, parameter) ?? {};
  return p.in === 'query' && !p.required && !/^[A-Za-z0-9._~-]+$/.test(p.name);
}

function parametersTo30(spec: Node, parameters: Node[]): Node[] {
  return parameters.filter((p) => !unexpandable(spec, p)).map((p) => parameterTo30(spec, p));
}

function operationTo30(spec: Node, plan: DreddPlan, operation: Node, pathParameters: Node[]): Node {
  const out: Node = {};
  for (const [key, value] of Object.entries(operation)) {
    if (key.startsWith('x-') || key === 'callbacks') continue;
    if (key === 'parameters') out.parameters = parametersTo30(spec, value as Node[]);
    else if (key === 'requestBody') out.requestBody = requestBodyTo30(spec, value as Node);
    else if (key === 'responses') out.responses = successResponse(spec, operation);
    else out[key] = value;
  }
  const id = operation.operationId as string;
  if (plan.withoutOptionalQuery[id]) {
    out.parameters = (out.parameters ?? []).filter((p: Node) => {
      const parameter = resolveRef(spec, p) ?? {};
      return parameter.in !== 'query' || parameter.required;
    });
    out['x-dredd-demo'] = plan.withoutOptionalQuery[id];
  }
  // A demo value for one operation's parameter: an inline copy in the operation, which overrides the
  // path's parameter of that name (OpenAPI: an operation's parameter overrides the path item's).
  for (const [name, demo] of Object.entries(plan.operationParameters[id] ?? {})) {
    const all = [...pathParameters, ...(operation.parameters ?? [])].map((p) => resolveRef(spec, p) ?? {});
    const parameter = all.find((p) => p.name === name);
    if (!parameter)
      throw new Error(`the Dredd plan gives ${id} the parameter ${name}, which it does not take`);
    out.parameters = [
      ...(out.parameters ?? []).filter((p: Node) => resolveRef(spec, p)?.name !== name),
      { ...parameterTo30(spec, parameter), example: demo.example, 'x-dredd-demo': demo.why },
    ];
  }
  const body = plan.bodies[id];
  if (body) {
    const requestBody = resolveRef(spec, operation.requestBody);
    if (!requestBody?.content?.['application/json'])
      throw new Error(`the Dredd plan gives ${id} a JSON body, which the contract does not take`);
    out.requestBody = requestBodyTo30(spec, requestBody);
    Object.assign(out.requestBody.content['application/json'], {
      example: body.example,
      'x-dredd-demo': body.why,
    });
  }
  if (plan.skipped[id]) out['x-dredd-skipped'] = plan.skipped[id];
  if (plan.last.includes(id)) out['x-dredd-last'] = plan.last.indexOf(id) + 1;
  if (plan.fromAnswer[id]) out['x-dredd-from-answer'] = plan.fromAnswer[id];
  const upload = plan.multipart[id];
  if (upload) {
    if (!resolveRef(spec, operation.requestBody)?.content?.['multipart/form-data'])
      throw new Error(`the Dredd plan gives ${id} a multipart body, which the contract does not take`);
    const { why, ...file } = upload;
    out['x-dredd-multipart'] = file;
    out['x-dredd-demo'] = why;
  }
  return out;
}

/** Every `#/components/...` reference reachable from `root`, following references into components. */
function reachableComponents(doc: Node, root: Node): Set<string> {
  const seen = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const ref = (node as Node).$ref;
      if (typeof ref === 'string' && ref.startsWith('#/components/') && !seen.has(ref)) {
        seen.add(ref);
        visit(resolveRef(doc, { $ref: ref }));
      }
      for (const value of Object.values(node)) visit(value);
    }
  };
  visit(root);
  return seen;
}

/** The plan's operationIds and parameter names, each one the contract has. */
function checkPlan(spec: Node, api: DreddApi, plan: DreddPlan) {
  const ids = new Set(operations(spec).map((o) => o.operation.operationId as string));
  const named = [
    ...Object.keys(plan.skipped),
    ...plan.first,
    ...plan.last,
    ...Object.keys(plan.withoutOptionalQuery),
    ...Object.keys(plan.bodies),
    ...Object.keys(plan.operationParameters),
    ...Object.keys(plan.multipart),
    ...Object.keys(plan.fromAnswer),
    ...Object.values(plan.fromAnswer).flatMap((f) =>
      [...Object.values(f.path ?? {}), ...Object.values(f.body ?? {})].map((a) => a.operationId),
    ),
  ];
  for (const id of named)
    if (!ids.has(id)) throw new Error(`the Dredd plan of ${api} names ${id}, which ${api} does not have`);
  for (const name of Object.keys(plan.parameters))
    if (!spec.components?.parameters?.[name])
      throw new Error(`the Dredd plan of ${api} names the parameter ${name}, which ${api} does not have`);
}

/**
 * The bundled OpenAPI 3.1 contract of `api` as an OpenAPI 3.0.3 document for Dredd 14 (see the top of
 * this file). `spec` is left alone.
 */
export function dreddExport(spec: Node, api: DreddApi, plan: DreddPlan = DREDD_PLANS[api]): Node {
  checkPlan(spec, api, plan);
  // Paths in the contract's order, those holding an operation of `plan.first` moved to the front.
  const rankOf = (id: string | undefined) => {
    const i = id ? plan.first.indexOf(id) : -1;
    return i < 0 ? plan.first.length : i;
  };
  const rank = (item: Node) => Math.min(...HTTP_METHODS.map((m) => rankOf(item[m]?.operationId)));
  const pathEntries = Object.entries(spec.paths as Node).sort(([, a], [, b]) => rank(a) - rank(b));

  const paths: Node = {};
  for (const [path, item] of pathEntries) {
    const out: Node = {};
    const methods = HTTP_METHODS.filter((m) => item[m]).sort(
      (a, b) => rankOf(item[a].operationId) - rankOf(item[b].operationId),
    );
    for (const [key, value] of Object.entries(item as Node)) {
      // A path item's summary would become the name Dredd gives the transaction's resource, where
      // the hooks look for the path: the path item keeps none (nor its description).
      if (key.startsWith('x-') || key === 'summary' || key === 'description') continue;
      if ((HTTP_METHODS as readonly string[]).includes(key)) continue;
      out[key] = key === 'parameters' ? parametersTo30(spec, value as Node[]) : value;
    }
    for (const method of methods)
      out[method] = operationTo30(spec, plan, item[method], (item.parameters ?? []) as Node[]);
    paths[path] = out;
  }

  const converted: Node = {};
  for (const [section, entries] of Object.entries((spec.components ?? {}) as Node)) {
    if (section === 'examples' || section === 'headers') continue; // inlined, or dropped with the headers
    converted[section] = Object.fromEntries(
      Object.entries(entries as Node).map(([name, value]) => {
        const v = value as Node;
        switch (section) {
          case 'schemas':
            return [name, schemaTo30(v)];
          case 'parameters': {
            const p = parameterTo30(spec, v);
            const demo = plan.parameters[name];
            return [name, demo ? { ...p, example: demo.example, 'x-dredd-demo': demo.why } : p];
          }
          case 'requestBodies':
            return [name, requestBodyTo30(spec, v)];
          case 'responses':
            return [name, responseTo30(spec, v)];
          default:
            return [name, stripExtensions(v)];
        }
      }),
    );
  }

  const { summary: _summary, ...info } = stripExtensions(spec.info as Node);
  if (info.license) {
    const { identifier: _identifier, ...license } = info.license as Node;
    info.license = license;
  }
  const doc: Node = {
    openapi: '3.0.3',
    info: {
      ...info,
      description: [
        (info.description ?? '').trim(),
        `Exported for Dredd 14 by \`lmskit export --for dredd\` from the OpenAPI 3.1 contract \`generated/openapi/${api}.json\`: OpenAPI 3.0.3, one example per parameter and body, each operation's first 2xx answer only, JSON answers as \`${MOCK_JSON_CONTENT_TYPE}\`, the operations in an order and with demo records (\`x-dredd-demo\` says where and why) in which they run on a fresh demo tenant.`,
        `Run it with tools/dredd/hooks.js: it sends the keys, skips what \`x-dredd-skipped\` marks, fills what \`x-dredd-from-answer\` names from earlier answers, builds the upload \`x-dredd-multipart\` describes, and has each answer validated against the contract's schema (\`${BODY_SCHEMA}\`). docs/conformance.md, "With Dredd".`,
      ]
        .filter(Boolean)
        .join('\n\n'),
    },
    ...(spec.servers ? { servers: spec.servers } : {}),
    ...(spec.security ? { security: spec.security } : {}),
    ...(spec.tags ? { tags: (spec.tags as Node[]).map(stripExtensions) } : {}),
    paths,
    components: converted,
  };
  // Only the components something still refers to (the error responses went with their statuses).
  const used = reachableComponents(doc, { paths: doc.paths, security: doc.security });
  for (const [section, entries] of Object.entries(converted)) {
    if (section === 'securitySchemes') continue;
    for (const name of Object.keys(entries as Node))
      if (!used.has(`#/components/${section}/${name}`)) delete (entries as Node)[name];
    if (!Object.keys(entries as Node).length) delete converted[section];
  }
  // The answers' draft-07 schemas refer to definitions by name: the contract's schemas of those names.
  const definitions = new Set<string>();
  const collect = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (node && typeof node === 'object') {
      const ref = (node as Node).$ref;
      if (typeof ref === 'string' && ref.startsWith(DEFINITIONS_POINTER)) {
        const name = ref.slice(DEFINITIONS_POINTER.length);
        if (!definitions.has(name)) {
          definitions.add(name);
          collect(schemaToDraft07(spec.components.schemas[name]));
        }
      }
      for (const value of Object.values(node)) collect(value);
    }
  };
  collect(doc.paths);
  doc[JSON_SCHEMA_ROOT] = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    definitions: Object.fromEntries(
      [...definitions].sort().map((name) => [name, schemaToDraft07(spec.components.schemas[name])]),
    ),
  };
  return doc;
}
