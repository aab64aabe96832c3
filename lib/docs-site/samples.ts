// One example request per operation, taken from the contract (its parameter and body examples, the
// demo keys of the mock), and the code samples httpsnippet writes from it: curl, JavaScript fetch
// and Python requests. The same request pre-fills the reference's "Try it" form.
import { type HarRequest, HTTPSnippet } from '@readme/httpsnippet';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../../mock/seed/demo.ts';
import type { ApiName } from '../paths.ts';
import { type Node, resolveRef } from '../spec-walk.ts';

export interface ExampleParam {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** The contract's example, as the text a URL or a form field carries; '' when it has none. */
  value: string;
  description: string;
}

export interface ExampleAuth {
  header: string;
  /** What is sent: the demo key, or a placeholder where the mock has no fixed value. */
  value: string;
  /** The prefix of the header's value (`Bearer `) that a form asks no one to type. */
  prefix: string;
  /** Whether `value` works against the mock as it starts (the demo keys do; the admin token is random). */
  known: boolean;
  hint: string;
}

export interface ExampleBody {
  contentType: string;
  /** JSON bodies: the example, pretty-printed. */
  json?: string;
  /** multipart/form-data: one part per property, files by name. */
  parts?: { name: string; value: string; file: boolean; required: boolean }[];
  /**
   * JSON pointers to the example's strings the platform refuses a second time (`x-unique` in the
   * contract: an id, an e-mail): "Try it" changes them after each answered send, so Send works again.
   */
  unique?: string[];
}

export interface ExampleRequest {
  operationId: string;
  method: string;
  /** The server URL the contract names first, e.g. `http://127.0.0.1:4010/openapi/v1`. */
  server: string;
  path: string;
  params: ExampleParam[];
  auth?: ExampleAuth;
  body?: ExampleBody;
}

/**
 * The key each API's samples carry: the demo tenant's site key for v1 and the demo key of Ada (read
 * and write) for v2, both printed by `npm start`; the admin token is random per start.
 */
const AUTH_VALUES: Record<ApiName, { value: string; known: boolean; hint: string }> = {
  v1: { value: DEMO_SITE_API_KEY, known: true, hint: 'the demo tenant’s site API key' },
  v2: { value: demoMcpKey('write'), known: true, hint: 'the demo MCP key of Ada (read and write)' },
  admin: { value: '<admin token>', known: false, hint: 'the admin token `npm start` prints' },
};

/** A value the contract gives for a schema: its example, default, constant or first enum member. */
export function schemaExample(spec: Node, schemaOrRef: Node | undefined, depth = 0): unknown {
  const schema = resolveRef(spec, schemaOrRef);
  if (!schema || depth > 8) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (variant) return schemaExample(spec, variant, depth + 1);
  if (schema.allOf)
    return Object.assign({}, ...schema.allOf.map((s: Node) => schemaExample(spec, s, depth + 1) ?? {}));
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, Node>)) {
      const value = schemaExample(spec, prop, depth + 1);
      if (value !== undefined && (schema.required?.includes(name) || hasOwnExample(spec, prop)))
        out[name] = value;
    }
    return out;
  }
  if (type === 'array') {
    const item = schemaExample(spec, schema.items, depth + 1);
    return item === undefined ? [] : [item];
  }
  return undefined;
}

const hasOwnExample = (spec: Node, prop: Node) => {
  const s = resolveRef(spec, prop) ?? {};
  return s.example !== undefined || (Array.isArray(s.examples) && s.examples.length > 0);
};

/** The first example of a media type or parameter: a named one, else the inline one, else its schema's. */
export function firstExample(spec: Node, holder: Node | undefined): unknown {
  if (!holder) return undefined;
  const named = Object.values((holder.examples ?? {}) as Record<string, Node>)[0];
  if (named) return resolveRef(spec, named)?.value;
  if (holder.example !== undefined) return holder.example;
  return schemaExample(spec, holder.schema);
}

const asText = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** The pointers (under `at`) to the strings of `value` whose schema is marked `x-unique`. */
export function uniquePointers(spec: Node, schemaOrRef: Node | undefined, value: unknown, at = ''): string[] {
  if (schemaOrRef?.['x-unique'] === true) return typeof value === 'string' ? [at] : [];
  const schema = resolveRef(spec, schemaOrRef);
  if (!schema || value === null || typeof value !== 'object') return [];
  if (schema['x-unique'] === true) return [];
  const parts = ((schema.allOf ?? []) as Node[]).flatMap((s) => uniquePointers(spec, s, value, at));
  if (Array.isArray(value))
    return [...parts, ...value.flatMap((item, i) => uniquePointers(spec, schema.items, item, `${at}/${i}`))];
  const properties = (schema.properties ?? {}) as Record<string, Node>;
  return [
    ...parts,
    ...Object.entries(value).flatMap(([key, item]) =>
      uniquePointers(spec, properties[key], item, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`),
    ),
  ];
}

/** The example request of one operation of a bundled spec. */
export function exampleRequest(api: ApiName, spec: Node, path: string, method: string): ExampleRequest {
  const item = spec.paths[path] as Node;
  const operation = item[method] as Node;
  const params: ExampleParam[] = [...(item.parameters ?? []), ...(operation.parameters ?? [])]
    .map((p: Node) => resolveRef(spec, p) as Node)
    .filter((p) => ['path', 'query', 'header'].includes(p.in))
    .map((p) => ({
      name: p.name,
      in: p.in,
      required: p.in === 'path' || p.required === true,
      value: asText(firstExample(spec, p)),
      description: String(p.description ?? ''),
    }));
  const request: ExampleRequest = {
    operationId: operation.operationId,
    method: method.toUpperCase(),
    server: spec.servers[0].url,
    path,
    params,
  };
  const security = (operation.security ?? spec.security ?? []) as Record<string, string[]>[];
  const schemeName = Object.keys(security[0] ?? {})[0];
  const scheme = schemeName ? resolveRef(spec, spec.components.securitySchemes[schemeName]) : undefined;
  if (scheme) {
    const bearer = scheme.type === 'http' && scheme.scheme === 'bearer';
    request.auth = {
      header: bearer ? 'Authorization' : scheme.name,
      prefix: bearer ? 'Bearer ' : '',
      ...AUTH_VALUES[api],
    };
  }
  const requestBody = resolveRef(spec, operation.requestBody);
  if (requestBody) {
    const [contentType, media] = Object.entries(requestBody.content as Record<string, Node>)[0] ?? [];
    if (contentType && media) {
      const body: ExampleBody = { contentType };
      if (contentType === 'multipart/form-data') {
        const schema = resolveRef(spec, media.schema) ?? {};
        body.parts = Object.entries((schema.properties ?? {}) as Record<string, Node>).map(([name, prop]) => {
          const s = resolveRef(spec, prop) ?? {};
          return {
            name,
            file: s.format === 'binary' || s.contentMediaType !== undefined,
            value: asText(schemaExample(spec, s)),
            required: (schema.required ?? []).includes(name),
          };
        });
      } else {
        const example = firstExample(spec, media) ?? {};
        body.json = JSON.stringify(example, null, 2);
        const unique = uniquePointers(spec, media.schema, example);
        if (unique.length) body.unique = unique;
      }
      request.body = body;
    }
  }
  return request;
}

/** The URL of the example request, path parameters filled in and the query's examples attached. */
export function exampleUrl(request: ExampleRequest): string {
  const path = request.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(request.params.find((p) => p.in === 'path' && p.name === name)?.value || `{${name}}`),
  );
  return `${request.server}${path}`;
}

function harOf(request: ExampleRequest): HarRequest {
  const headers = request.params
    .filter((p) => p.in === 'header' && p.value)
    .map((p) => ({ name: p.name, value: p.value }));
  if (request.auth)
    headers.unshift({ name: request.auth.header, value: request.auth.prefix + request.auth.value });
  const har: HarRequest = {
    method: request.method,
    url: exampleUrl(request),
    httpVersion: 'HTTP/1.1',
    headers,
    queryString: request.params
      .filter((p) => p.in === 'query' && p.value)
      .map((p) => ({ name: p.name, value: p.value })),
    cookies: [],
    headersSize: -1,
    bodySize: -1,
    postData: { mimeType: '' },
  };
  const body = request.body;
  if (body?.json !== undefined) {
    headers.push({ name: 'content-type', value: body.contentType });
    har.postData = { mimeType: body.contentType, text: JSON.stringify(JSON.parse(body.json)) };
  } else if (body?.parts) {
    har.postData = {
      mimeType: body.contentType,
      params: body.parts
        .filter((p) => p.required || p.value)
        .map((p) => (p.file ? { name: p.name, fileName: 'handbook.pdf' } : { name: p.name, value: p.value })),
    };
  }
  return har;
}

/** The languages of the samples, in the order the reference shows them (Redoc's `x-codeSamples`). */
const LANGUAGES = [
  { lang: 'curl', label: 'curl', target: 'shell', client: 'curl' },
  { lang: 'JavaScript', label: 'JavaScript', target: 'javascript', client: 'fetch' },
  { lang: 'Python', label: 'Python', target: 'python', client: 'requests' },
] as const;

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** curl, JavaScript (`fetch`) and Python (`requests`) for the example request, written by httpsnippet. */
export function codeSamples(request: ExampleRequest): CodeSample[] {
  const snippet = new HTTPSnippet(harOf(request));
  return LANGUAGES.map(({ lang, label, target, client }) => {
    const [source] = snippet.convert(target, client, { indent: '  ' });
    if (typeof source !== 'string')
      throw new Error(`httpsnippet wrote no ${lang} for ${request.operationId}`);
    return { lang, label, source: source.trimEnd() };
  });
}
