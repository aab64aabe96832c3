// The documented part of a contract: a copy of a bundled spec in which every schema the kit assumed
// accepts anything. An answer is judged twice — against this copy (a difference is a MUST failure)
// and against the whole contract (a difference only there departs from the kit's choice, SHOULD).
//
// In a schema:
// - a node marked `x-assumed: true` becomes `{}` (the seed does not show it, so anything goes), and a
//   property so marked is no longer required;
// - a node marked `x-assumed-closed: true` loses its `enum`: the seed lists some values and does not
//   say there are no others (the generation job's intermediate states);
// - a node marked `x-assumed-bound: true` loses its `maxItems`, `maxLength` and `maximum`: the seed
//   shows no paging, cap or length, so the kit's bound is its choice, while what it bounds is what the
//   seed says it is;
// - nothing is closed: `additionalProperties: false` and `unevaluatedProperties: false` go, since
//   the seeds nowhere forbid a field they do not list. An extra field is at most the kit's choice
//   departed from (a SHOULD), never a MUST failure.

import type { Node } from '../lib/spec-walk.ts';

const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const mapValues = (o: Node, f: (v: unknown) => unknown) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

const SUBSCHEMA = ['items', 'not', 'if', 'then', 'else', 'additionalProperties', 'contains'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs'];

/** The documented part of one schema (the rules above): what a seed states of it. */
export function documentedSchema(node: unknown): unknown {
  if (!isObject(node)) return node;
  if (node['x-assumed'] === true) return {};
  const out: Node = { ...node };
  if (out['x-assumed-closed'] === true) delete out.enum;
  if (out['x-assumed-bound'] === true) {
    delete out.maxItems;
    delete out.maxLength;
    delete out.maximum;
  }
  if (out.additionalProperties === false) delete out.additionalProperties;
  if (out.unevaluatedProperties === false) delete out.unevaluatedProperties;
  for (const k of SUBSCHEMA) if (isObject(out[k])) out[k] = documentedSchema(out[k]);
  for (const k of SUBSCHEMA_LISTS) if (Array.isArray(out[k])) out[k] = out[k].map(documentedSchema);
  for (const k of SUBSCHEMA_MAPS) if (isObject(out[k])) out[k] = mapValues(out[k], documentedSchema);
  if (Array.isArray(out.required) && isObject(node.properties)) {
    out.required = out.required.filter((p: string) => node.properties[p]?.['x-assumed'] !== true);
  }
  return out;
}

/** The bundled spec with every schema replaced by its documented part. */
export function documentedSpec(spec: Node): Node {
  const copy: Node = structuredClone(spec);
  const schemasOf = (responses: Node | undefined) => {
    for (const response of Object.values(responses ?? {}) as Node[]) {
      for (const media of Object.values(response.content ?? {}) as Node[]) {
        if (media.schema) media.schema = documentedSchema(media.schema);
      }
    }
  };
  if (copy.components?.schemas)
    copy.components.schemas = mapValues(copy.components.schemas, documentedSchema);
  schemasOf(copy.components?.responses);
  for (const item of Object.values(copy.paths ?? {}) as Node[]) {
    for (const op of Object.values(item) as Node[]) if (isObject(op?.responses)) schemasOf(op.responses);
  }
  return copy;
}

/** A schema that accepts anything: all of it was assumed. */
export const acceptsAnything = (schema: unknown) => isObject(schema) && Object.keys(schema).length === 0;
