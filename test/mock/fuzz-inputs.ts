// Inputs for the v1 fuzz test: every operation of the bundled v1 document, valid
// inputs generated from its schemas with json-schema-faker (seeded, so every run sends the same
// requests), and invalid ones made by mutating an accepted input along what the schemas say.
// Nothing here talks to the mock; `fuzz.test.ts` sends the requests and judges the answers.
import { generateSync } from 'json-schema-faker';
import { type Node, operations, resolveRef } from '../../lib/spec-walk.ts';

export type { Node };

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
  example: unknown;
  schema: Node;
}

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters: Parameter[];
  /** The JSON request body schema with every `$ref` inlined, or null for operations without a body. */
  body: Node | null;
}

/** What an answer to an input must be. */
export type Expectation =
  /** The contract (or docs/adr-0002, bad input) refuses it: a 4xx in the error shape, nothing changed. */
  | 'refused'
  /** A reference to something that does not exist: refused, or (where the seed says unknown ids are left out) a 2xx that changes nothing. */
  | 'refusedOrIgnored'
  /** Allowed by the contract though odd: anything but a 5xx; a 4xx changes nothing. */
  | 'probe';

export interface BodyCase {
  /** A stable name: the JSON pointer of the mutated value and what was done to it. */
  id: string;
  expect: Expectation;
  body: unknown;
}

// ---------------------------------------------------------------------------------------------
// The document

const pointerTarget = (spec: Node, $ref: string): Node => resolveRef(spec, { $ref }) as Node;

/** Keys that annotate a schema and mean nothing to a generator (json-schema-faker would treat `example` as data). */
const ANNOTATIONS = new Set([
  'example',
  'examples',
  'description',
  'title',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
/** Keys whose value is a map of names to schemas, not a schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/**
 * The schema with every `$ref` replaced by its target (siblings of a `$ref` win, as in OpenAPI 3.1)
 * and annotations dropped, except `description`, which `isReference` reads.
 */
export function inline(spec: Node, node: unknown, seen: string[] = []): Node {
  if (Array.isArray(node)) return node.map((n) => inline(spec, n, seen)) as unknown as Node;
  if (!node || typeof node !== 'object') return node as Node;
  let n = node as Node;
  if (typeof n.$ref === 'string') {
    if (seen.includes(n.$ref)) throw new Error(`recursive schema at ${n.$ref}`);
    const { $ref, ...siblings } = n;
    n = { ...inline(spec, pointerTarget(spec, $ref), [...seen, $ref]), ...siblings };
  }
  const out: Node = {};
  for (const [k, v] of Object.entries(n)) {
    if (k === '$ref' || k.startsWith('x-') || (ANNOTATIONS.has(k) && k !== 'description')) continue;
    if (k === 'description' && typeof v !== 'string') continue;
    if (SCHEMA_MAPS.has(k) && v && typeof v === 'object')
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, inline(spec, s, seen)]));
    else if (k === 'enum' || k === 'const' || k === 'default' || k === 'required' || k === 'type') out[k] = v;
    else out[k] = v && typeof v === 'object' ? inline(spec, v, seen) : v;
  }
  return out;
}

/** Every operation of the document, in document order, with its parameters and inlined body schema. */
export function operationsOf(spec: Node): Operation[] {
  return operations(spec).map(({ method, path, operation, parameters: declared }) => {
    const parameters = declared.map((p: Node) => {
      const param = resolveRef(spec, p) as Node;
      return {
        name: param.name,
        in: param.in,
        required: param.required === true,
        description: param.description ?? '',
        example: param.example,
        schema: inline(spec, param.schema),
      } as Parameter;
    });
    const requestBody = resolveRef(spec, operation.requestBody);
    const media = requestBody?.content?.['application/json'];
    return {
      operationId: operation.operationId as string,
      method: method.toUpperCase(),
      path,
      parameters,
      body: media ? inline(spec, media.schema) : null,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Generation (json-schema-faker, seeded)

/** A stable number for a string, so each operation and schema location has a seed of its own. */
export function seedOf(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ (c.codePointAt(0) ?? 0), 16777619) >>> 0;
  return h % 1_000_000;
}

/**
 * A value valid for `schema`, the same for the same seed on every run. At most 3 items a list (no
 * contract asks for more than 2): the fixtures' lists may hold thousands, and json-schema-faker,
 * left to a list's `maxItems`, made fixtures of 4 to 16 MB, each seconds of work before it was
 * refused for its size. A closed object whose properties are all optional but some must be there
 * (`minProperties`, the admin API's AI settings) is one json-schema-faker gives up on; it is made
 * again with every optional property.
 */
export const fake = (schema: Node, seed: number): unknown => {
  const options = { seed, maxDefaultItems: 3, maxItems: 3 };
  try {
    return generateSync(schema, options);
  } catch {
    return generateSync(schema, { ...options, alwaysFakeOptionals: true });
  }
};

// ---------------------------------------------------------------------------------------------
// What the schemas say about a value

const typesOf = (schema: Node): string[] => ([] as string[]).concat(schema.type ?? []);

const isPlainObject = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function hasType(types: string[], v: unknown): boolean {
  return types.some((t) =>
    t === 'null'
      ? v === null
      : t === 'array'
        ? Array.isArray(v)
        : t === 'object'
          ? isPlainObject(v)
          : t === 'integer'
            ? Number.isInteger(v)
            : t === 'number'
              ? typeof v === 'number'
              : typeof v === t,
  );
}

/** Length as JSON Schema counts it: code points (a lone surrogate counts one). */
const lengthOf = (s: string) => [...s].length;

/** A deliberately loose e-mail test: the values below that fail it are not e-mail addresses in any reading. */
const LOOKS_LIKE_EMAIL = /^[^@\s\p{C}]+@[^@\s\p{C}]+\.[^@\s\p{C}]+$/u;

/** Whether `v` meets the string constraints of `schema` (type, length, pattern, format, enum). */
function stringOk(schema: Node, v: string): boolean {
  if (schema.minLength !== undefined && lengthOf(v) < schema.minLength) return false;
  if (schema.maxLength !== undefined && lengthOf(v) > schema.maxLength) return false;
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(v)) return false;
  if (schema.format === 'email' && !LOOKS_LIKE_EMAIL.test(v)) return false;
  if (schema.enum && !schema.enum.includes(v)) return false;
  return true;
}

function numberOk(schema: Node, v: number): boolean {
  if (!hasType(typesOf(schema), v)) return false;
  if (schema.minimum !== undefined && v < schema.minimum) return false;
  if (schema.maximum !== undefined && v > schema.maximum) return false;
  if (schema.exclusiveMinimum !== undefined && v <= schema.exclusiveMinimum) return false;
  if (schema.exclusiveMaximum !== undefined && v >= schema.exclusiveMaximum) return false;
  if (schema.enum && !schema.enum.includes(v)) return false;
  return true;
}

/**
 * A field that names something that must already exist ("ID of the parent group", "IDs of courses
 * to assign", "API ID of the user to ban") — as opposed to "API ID for the new user".
 */
export const isReference = (schema: Node) => /\bIDs? of\b/.test(schema.description ?? '');

/** Which demo resource a reference or path parameter names, from its name and description. */
export function kindOf(text: string): 'attribute' | 'course' | 'group' | 'user' | 'event' | null {
  const t = text.toLowerCase();
  if (t.includes('attribute')) return 'attribute';
  if (t.includes('course')) return 'course';
  if (t.includes('group')) return 'group';
  if (t.includes('user')) return 'user';
  if (t.includes('event')) return 'event';
  return null;
}

// ---------------------------------------------------------------------------------------------
// Mutations

/** Strings that Unicode-aware code gets wrong (seed 001 text fields carry no character rules). */
export const ODD_STRINGS: [string, string][] = [
  ['NUL', 'a\u0000b'],
  ['lone high surrogate', 'a\ud800b'],
  ['lone low surrogate', '\udc00'],
  ['RTL override', '\u202eevil\u202c'],
  ['RLM + Arabic', '\u200f\u0645\u0631\u062d\u0628\u0627'],
  ['emoji ZWJ sequence', '👩🏽‍💻🏳️‍🌈'],
  ['BOM', '\ufeffname'],
  ['combining marks', 'Z\u0351\u0363\u0310a\u0352\u035bl\u0345g\u0353o'],
  ['10k chars', 'x'.repeat(10_000)],
  ['empty', ''],
  ['whitespace only', ' \t\n'],
];

/** Values that break a string schema's own constraints, beyond the odd strings. */
function constraintStrings(schema: Node): [string, string][] {
  const out: [string, string][] = [];
  if (schema.minLength)
    out.push([`minLength-1 (${schema.minLength - 1} chars)`, 'x'.repeat(schema.minLength - 1)]);
  if (schema.maxLength !== undefined)
    out.push([`maxLength+1 (${schema.maxLength + 1} chars)`, 'x'.repeat(schema.maxLength + 1)]);
  if (schema.pattern !== undefined)
    out.push(['with a space', 'ab cd'], ['negative number', '-1'], ['slash', 'a/b'], ['dot', 'a.b']);
  if (schema.format === 'email')
    out.push(
      ['not an e-mail', 'not-an-email'],
      ['two @', 'a@b@example.com'],
      ['no local part', '@example.com'],
      ['no domain', 'anna@'],
      ['space in e-mail', 'an na@example.com'],
      ['NUL in e-mail', 'an\u0000na@example.com'],
      ['10k-char local part', `${'x'.repeat(10_000)}@example.com`],
    );
  if (schema.enum) out.push(['not in enum', '__not_in_enum__']);
  return out;
}

const WRONG_TYPES: [string, unknown][] = [
  ['string', 'x'],
  ['integer', 7],
  ['non-integer number', 1.5],
  ['boolean', true],
  ['object', {}],
  ['array', []],
  ['null', null],
];

/** Numbers around and beyond a numeric schema's bounds: negative, zero, huge, non-integer, unsafe. */
function numberCandidates(schema: Node): [string, number][] {
  const out: [string, number][] = [
    ['negative', -1],
    ['zero', 0],
    ['huge 1e20', 1e20],
    ['beyond MAX_SAFE_INTEGER', 2 ** 53 + 2],
  ];
  if (schema.minimum !== undefined) out.push([`minimum-1 (${schema.minimum - 1})`, schema.minimum - 1]);
  if (schema.maximum !== undefined) out.push([`maximum+1 (${schema.maximum + 1})`, schema.maximum + 1]);
  if (schema.enum) {
    const numbers = schema.enum.filter((x: unknown) => typeof x === 'number') as number[];
    out.push([`above enum (${Math.max(...numbers) + 1})`, Math.max(...numbers) + 1]);
    out.push([`below enum (${Math.min(...numbers) - 1})`, Math.min(...numbers) - 1]);
  }
  return out;
}

/** Keys an object may not expect; `__proto__` and `constructor` probe for prototype pollution. */
const EXTRA_KEYS: () => [string, Node][] = () => [
  ['unknown property', { unknownProperty: 1 }],
  ['NUL as a key', { '\u0000': 'x' }],
  ['emoji as a key', { '😀': 'x' }],
  [
    '__proto__ and constructor keys',
    JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
  ],
];

const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));
const omit = (o: Node, keys: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

/** Mutations of one value: `place(v)` answers the whole body with `v` at this location. */
function* mutate(
  schema: Node,
  base: unknown,
  place: (v: unknown) => unknown,
  at: string,
): Generator<BodyCase> {
  const types = typesOf(schema);
  const here = at || '/';
  const refused = (label: string, v: unknown): BodyCase => ({
    id: `${here} ${label}`,
    expect: 'refused',
    body: place(v),
  });

  if (types.length)
    for (const [label, v] of WRONG_TYPES) if (!hasType(types, v)) yield refused(`wrong type: ${label}`, v);

  if (types.includes('string')) {
    for (const [label, v] of [...constraintStrings(schema), ...ODD_STRINGS]) {
      if (stringOk(schema, v)) {
        if (!isReference(schema)) yield { id: `${here} ${label}`, expect: 'probe', body: place(v) };
      } else yield refused(label, v);
    }
  }

  if (types.includes('integer') || types.includes('number')) {
    for (const [label, v] of numberCandidates(schema)) {
      if (!numberOk(schema, v)) yield refused(label, v);
      else if (!isReference(schema)) yield { id: `${here} ${label}`, expect: 'probe', body: place(v) };
    }
  }

  if (types.includes('object') || schema.properties) {
    const b = isPlainObject(base) ? base : {};
    const properties = (schema.properties ?? {}) as Record<string, Node>;
    for (const name of (schema.required ?? []) as string[])
      yield refused(`missing required ${name}`, omit(b, [name]));
    for (const [label, extra] of EXTRA_KEYS()) {
      const body = place({ ...b, ...extra });
      if (schema.additionalProperties === false) yield { id: `${here} ${label}`, expect: 'refused', body };
      else yield { id: `${here} ${label}`, expect: 'probe', body };
    }
    const references = Object.entries(properties)
      .filter(([, sub]) => isReference(sub))
      .map(([k]) => k);
    for (const [name, sub] of Object.entries(properties)) {
      const child = b[name] ?? fake(sub, seedOf(`${at}/${name}`));
      yield* mutate(sub, child, (v) => place({ ...b, [name]: v }), `${at}/${name}`);
      if (isReference(sub)) {
        // Unknown ids, on a body that names nothing else, so that "ignored" can mean "nothing changed".
        const rest = omit(b, references);
        for (const [label, v] of referenceCandidates(sub))
          yield {
            id: `${at}/${name} ${label}`,
            expect: 'refusedOrIgnored',
            body: place({ ...rest, [name]: v }),
          };
      }
    }
    if (isPlainObject(schema.additionalProperties)) {
      const sub = schema.additionalProperties;
      yield* mutate(sub, fake(sub, seedOf(`${at}/*`)), (v) => place({ ...b, fuzzKey: v }), `${at}/fuzzKey`);
    }
  }

  if (types.includes('array') && schema.items) {
    const b = Array.isArray(base) ? base : [];
    // The items of a list of references are references too ("IDs of courses to assign").
    const items: Node =
      isReference(schema) && !isReference(schema.items)
        ? { ...schema.items, description: schema.description }
        : schema.items;
    const item = b[0] ?? fake(items, seedOf(`${at}/0`));
    if (schema.minItems) yield refused(`fewer than minItems ${schema.minItems}`, []);
    else yield { id: `${here} empty array`, expect: 'probe', body: place([]) };
    yield { id: `${here} 1000 copies of an item`, expect: 'probe', body: place(Array(1000).fill(item)) };
    yield* mutate(items, item, (v) => place([v, ...b.slice(1)]), `${at}/0`);
  }
}

/** Ids of nothing: negative, huge, unknown. */
function referenceCandidates(schema: Node): [string, unknown][] {
  const scalar = typesOf(schema).includes('array') ? (schema.items as Node) : schema;
  const wrap = (v: unknown) => (typesOf(schema).includes('array') ? [v] : v);
  const values: [string, unknown][] = typesOf(scalar).includes('string')
    ? [
        ['unknown id', 'nosuchuser0'],
        ['huge numeric id', '99999999999999999999'],
      ]
    : [
        ['negative id', -1],
        ['huge id 1e20', 1e20],
        ['unknown id', 424242],
      ];
  return values.map(([label, v]) => [label, wrap(v)]);
}

/** Every mutation of an accepted body, in a stable order. */
export function bodyCases(schema: Node, accepted: unknown): BodyCase[] {
  const cases = [...mutate(schema, clone(accepted), (v) => clone(v), '')];
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`duplicate fuzz case ${c.id}`);
    ids.add(c.id);
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Path and query values (raw, already percent-encoded URL text)

/** Bad values for a path parameter: ids that are negative, huge, non-numeric, unknown, or odd Unicode. */
export function pathCases(param: Parameter): [string, string][] {
  const unknown = typesOf(param.schema).includes('integer')
    ? '424242'
    : kindOf(param.name) === 'event'
      ? 'no.such.event'
      : 'nosuchuser0';
  return [
    ['negative', '-1'],
    ['huge 99999999999999999999', '99999999999999999999'],
    ['400 digits', '9'.repeat(400)],
    ['zero', '0'],
    ['unknown', unknown],
    ['non-numeric', 'abc'],
    ['non-integer', '1.5'],
    ['exponent', '1e3'],
    ['hex', '0x10'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['space', '%20'],
    ['NUL', '%00'],
    ['encoded slash', '1%2F2'],
    ['emoji', '%F0%9F%98%80'],
    ['RTL mark', '%E2%80%8F1'],
    ['lone surrogate (invalid UTF-8)', '%ED%A0%80'],
    ['malformed percent-encoding', '%'],
    ['10k chars', 'x'.repeat(10_000)],
  ];
}

/** Bad query strings for a query parameter (the `offset` of the course list). */
export function queryCases(param: Parameter): [string, string][] {
  const n = encodeURIComponent(param.name);
  return [
    ['negative', `${n}=-1`],
    ['huge 99999999999999999999', `${n}=99999999999999999999`],
    ['beyond MAX_SAFE_INTEGER', `${n}=9007199254740993`],
    ['non-numeric', `${n}=abc`],
    ['non-integer', `${n}=1.5`],
    ['empty', `${n}=`],
    ['NUL', `${n}=%00`],
    ['emoji', `${n}=%F0%9F%98%80`],
    ['repeated', `${n}=1&${n}=2`],
    // `offset[]=1` and `offset[a]=1` name other parameters (query keys are flat, as v2's
    // `fields[author]` needs), which the API ignores like any unknown parameter.
  ];
}
