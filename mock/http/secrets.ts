// What the request journal masks (docs/console.md, Requests; docs/mock.md, "Secrets in the journal"):
// headers whose name says they carry a credential, and the fields the contracts mark as secret —
// `writeOnly: true` / `format: password` (a request's passwords and signing secrets) or `x-secret:
// true` (keys, as in the answer that creates an MCP key) — found by walking the operation's request
// or response schema, so a field marked in a contract is masked without a list here
// (openapi/README.md, "Secrets").
import { type Node, resolveRef } from '../../lib/spec-walk.ts';

/** Header names that carry a credential: a token, a secret, an auth scheme, a key, a cookie, a session. */
const SECRET_HEADER = /token|secret|auth|key|cookie|passw|session|credential/i;

/**
 * Whether the journal masks a header. `WWW-Authenticate` names the scheme a client is asked for and
 * holds no credential, and a person reading a 401 in the journal needs it.
 */
export const isSecretHeader = (name: string) =>
  SECRET_HEADER.test(name) && name.toLowerCase() !== 'www-authenticate';

/**
 * A request URL with the value of every query parameter named like a credential (`?key=lmcp_…`,
 * `?token=…`, as headers are judged by name) masked, the rest as sent.
 */
export function maskQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const parts = url
    .slice(at + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) return part;
      let name = part.slice(0, eq);
      try {
        name = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // A name that does not decode is judged as written.
      }
      return isSecretHeader(name) ? `${part.slice(0, eq)}=${maskSecret(part.slice(eq + 1))}` : part;
    });
  return `${url.slice(0, at + 1)}${parts.join('&')}`;
}

/** Keys and tokens at least this long keep their last 4 characters, enough to tell them apart. */
const LONG = 16;

/**
 * `••••abcd` for a long key or token (the last 4 characters tell keys apart, as `lastUsedAt` lists
 * them), `••••` for anything shorter: never enough to use it.
 */
export const maskSecret = (value: string) => (value.length >= LONG ? `••••${value.slice(-4)}` : '••••');

/**
 * A secret value: a `key` (`x-secret`: a random key, shown as `maskSecret` shows one) or a `word`
 * (`format: password` or `writeOnly`: a password or signing secret, of which nothing is shown).
 */
export type SecretKind = 'key' | 'word';

/** Where the secrets of a value are: the value itself, or some of its properties or items. */
export type SecretTree =
  | SecretKind
  | { props?: Map<string, SecretTree>; items?: SecretTree; rest?: SecretTree };

/**
 * Whether a schema marks its value as secret: `x-secret: true`, `format: password`, or `writeOnly:
 * true` — a value sent and never answered, which in these contracts is always a password or a secret
 * (and the lint in redocly.yaml asks every field named like a secret for one of them).
 */
export const isSecretSchema = (schema: Node) => secretKindOf(schema) !== undefined;

function secretKindOf(schema: Node): SecretKind | undefined {
  if (schema.format === 'password' || schema.writeOnly === true) return 'word';
  return schema['x-secret'] === true ? 'key' : undefined;
}

function merge(a: SecretTree | undefined, b: SecretTree | undefined): SecretTree | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (typeof a === 'string' || typeof b === 'string') return a === 'word' || b === 'word' ? 'word' : 'key';
  const props = new Map(a.props ?? []);
  for (const [name, tree] of b.props ?? []) props.set(name, merge(props.get(name), tree) as SecretTree);
  const items = merge(a.items, b.items);
  const rest = merge(a.rest, b.rest);
  return {
    ...(props.size ? { props } : {}),
    ...(items ? { items } : {}),
    ...(rest ? { rest } : {}),
  };
}

/** The secrets of values of `schema` (a node of the bundled `spec`), or undefined when it holds none. */
export function secretTree(
  spec: Node,
  schema: Node | undefined,
  seen = new Set<Node>(),
): SecretTree | undefined {
  const node = resolveRef(spec, schema);
  if (!node || typeof node !== 'object' || seen.has(node)) return undefined;
  const kind = secretKindOf(node);
  if (kind) return kind;
  seen.add(node);
  let tree: SecretTree | undefined;
  for (const keyword of ['allOf', 'anyOf', 'oneOf'])
    for (const branch of (node[keyword] as Node[] | undefined) ?? [])
      tree = merge(tree, secretTree(spec, branch, seen));
  const props = new Map<string, SecretTree>();
  for (const [name, sub] of Object.entries((node.properties as Record<string, Node> | undefined) ?? {})) {
    const found = secretTree(spec, sub, seen);
    if (found) props.set(name, found);
  }
  const items = [node.items as Node | undefined, ...((node.prefixItems as Node[] | undefined) ?? [])]
    .map((s) => (s && typeof s === 'object' ? secretTree(spec, s, seen) : undefined))
    .reduce(merge, undefined);
  const extra = node.additionalProperties;
  const rest = extra && typeof extra === 'object' ? secretTree(spec, extra as Node, seen) : undefined;
  seen.delete(node);
  if (props.size || items || rest)
    tree = merge(tree, {
      ...(props.size ? { props } : {}),
      ...(items ? { items } : {}),
      ...(rest ? { rest } : {}),
    });
  return tree;
}

/** `value` with its secrets masked (a copy; the value itself is left as it is). */
export function maskValue(value: unknown, tree: SecretTree | undefined): unknown {
  if (!tree || value === null || value === undefined) return value;
  if (tree === 'key' && typeof value === 'string') return maskSecret(value);
  if (typeof tree === 'string') return '••••';
  if (Array.isArray(value)) return tree.items ? value.map((v) => maskValue(v, tree.items)) : value;
  if (typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value as Record<string, unknown>))
    out[name] = maskValue(v, tree.props?.get(name) ?? tree.rest);
  return out;
}

/** Every property name under which `tree` finds a secret, for text that cannot be parsed. */
function secretNames(tree: SecretTree, into = new Set<string>()): Set<string> {
  if (typeof tree === 'string') return into;
  for (const [name, sub] of tree.props ?? []) {
    if (typeof sub === 'string') into.add(name);
    else secretNames(sub, into);
  }
  if (tree.items) secretNames(tree.items, into);
  if (tree.rest) secretNames(tree.rest, into);
  return into;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * JSON text that is cut or not valid, with the string value of every property a secret is kept
 * under masked, to the end of the text if it is cut inside one. A secret that is not a string, or a
 * property of that name holding no secret, may be masked too: a text gives no more to go by.
 */
export function maskText(text: string, tree: SecretTree | undefined): string {
  if (!tree) return text;
  if (typeof tree === 'string') return '••••';
  const names = [...secretNames(tree)];
  if (!names.length) return text;
  const pattern = new RegExp(
    `("(?:${names.map(escapeRegExp).join('|')})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*(?:"|\\\\?$)`,
    'g',
  );
  return text.replace(pattern, '$1"••••"');
}
