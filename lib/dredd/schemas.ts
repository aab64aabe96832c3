// A contract's schemas in the words Dredd 14 reads (lib/dredd-export.ts): OpenAPI 3.0.3 for the
// document, loosened and never tightened where 3.0 cannot say what 3.1 says; and JSON Schema draft-07
// for the answer's schema the hooks hand Dredd (its validator is ajv 6).
import type { Node } from '../spec-walk.ts';

/** JSON Schema 2020-12 keywords with no OpenAPI 3.0 counterpart: dropped. */
const DROPPED_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$defs',
  '$comment',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'propertyNames',
  'patternProperties',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);

/** One 3.1 schema in 3.0.3's words (a new object; the input is left alone). */
export function schemaTo30(schema: Node): Node {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (schema.$ref) return { $ref: schema.$ref };
  const out: Node = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || DROPPED_KEYWORDS.has(key)) continue;
    switch (key) {
      case 'properties':
        out.properties = Object.fromEntries(
          Object.entries(value as Node).map(([name, s]) => [name, schemaTo30(s as Node)]),
        );
        break;
      case 'items':
      case 'not':
        out[key] = schemaTo30(value as Node);
        break;
      case 'additionalProperties':
        out[key] = typeof value === 'object' ? schemaTo30(value as Node) : value;
        break;
      case 'allOf':
      case 'oneOf':
      case 'anyOf':
        out[key] = (value as Node[]).map(schemaTo30);
        break;
      case 'const':
        if (!('enum' in schema)) out.enum = [value];
        break;
      case 'examples':
        if (!('example' in schema) && Array.isArray(value) && value.length) out.example = value[0];
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum': {
        const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
        if (typeof value === 'number') {
          out[bound] = value;
          out[key] = true;
        } else out[key] = value;
        break;
      }
      default:
        out[key] = value;
    }
  }
  nullableTypes(out);
  if (out.type === 'array' && !out.items) out.items = {};
  return out;
}

/**
 * The one schema OpenAPI 3.0.3 has for `null` alone (its clarification of `nullable`: a type, made
 * nullable, whose only value is `null`).
 */
export const NULL_ONLY = { type: 'string', nullable: true, enum: [null] } as const;

/**
 * `type: [T, 'null']` → `type: T, nullable: true`; several types → `anyOf` of each (and of
 * {@link NULL_ONLY} where `null` is one of them: 3.0.3's `nullable` needs a `type` beside it);
 * `type: 'null'` (a `oneOf` branch, say) → {@link NULL_ONLY}.
 */
function nullableTypes(out: Node) {
  if (out.type === 'null') {
    Object.assign(out, NULL_ONLY);
    return;
  }
  if (!Array.isArray(out.type)) return;
  const types = (out.type as string[]).filter((t) => t !== 'null');
  const nullable = types.length < out.type.length;
  if (types.length === 1) {
    out.type = types[0];
    if (nullable) out.nullable = true;
    return;
  }
  delete out.type;
  if (types.length === 0) {
    Object.assign(out, NULL_ONLY);
    return;
  }
  const items = out.items ?? {};
  delete out.items;
  out.anyOf = [
    ...types.map((t) => (t === 'array' ? { type: 'array', items } : { type: t })),
    ...(nullable ? [{ ...NULL_ONLY }] : []),
  ];
}

/**
 * Where an answer's media type carries its draft-07 schema, and where the export keeps the definitions
 * those schemas refer to: `#/x-dredd-json-schema/definitions/<name>`, a pointer that resolves in the
 * export itself and in the schema the hooks give Dredd (the same key at its root).
 */
export const BODY_SCHEMA = 'x-dredd-body-schema';
export const JSON_SCHEMA_ROOT = 'x-dredd-json-schema';
export const DEFINITIONS_POINTER = `#/${JSON_SCHEMA_ROOT}/definitions/`;

/** The `format`s Dredd's validator (ajv 6) knows; it refuses a schema naming any other. */
const DRAFT07_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'relative-json-pointer',
]);

/**
 * One 2020-12 schema of the contract as JSON Schema draft-07, the newest Dredd validates an answer
 * with: references to the export's definitions (`#/x-dredd-json-schema/definitions/`), a `$ref`'s
 * siblings kept in force through `allOf` (draft-07 ignores them), `prefixItems` as an `items` array,
 * `dependentRequired` as `dependencies`; dropped, so loosened: `unevaluatedProperties`,
 * `unevaluatedItems`, and the formats ajv 6 does not know (it refuses a schema naming one).
 */
export function schemaToDraft07(schema: Node): Node {
  if (Array.isArray(schema)) return schema.map(schemaToDraft07);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Node = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || key === 'unevaluatedProperties' || key === 'unevaluatedItems') continue;
    if (key === '$ref') out.$ref = (value as string).replace('#/components/schemas/', DEFINITIONS_POINTER);
    else if (key === 'format' && !DRAFT07_FORMATS.has(value as string)) continue;
    else if (key === 'prefixItems') {
      out.items = (value as Node[]).map(schemaToDraft07);
      if (schema.items !== undefined) out.additionalItems = schemaToDraft07(schema.items);
    } else if (key === 'items' && schema.prefixItems) continue;
    else if (key === 'dependentRequired') out.dependencies = value;
    else if (key === 'properties' || key === 'patternProperties' || key === '$defs')
      out[key === '$defs' ? 'definitions' : key] = Object.fromEntries(
        Object.entries(value as Node).map(([name, s]) => [name, schemaToDraft07(s as Node)]),
      );
    else if (
      key === 'enum' ||
      key === 'const' ||
      key === 'examples' ||
      key === 'default' ||
      key === 'example'
    )
      out[key] = value;
    else out[key] = typeof value === 'object' ? schemaToDraft07(value as Node) : value;
  }
  if (out.$ref && Object.keys(out).length > 1) {
    const { $ref, ...siblings } = out;
    return { ...siblings, allOf: [{ $ref }, ...(siblings.allOf ?? [])] };
  }
  return out;
}
