// Contract test (c): every example in the three APIs validates against the schema it illustrates
// (openapi/README.md: every example validates against its schema). Redocly checks media-type examples in
// lint; this test also covers parameter examples and schema-level `example`s, with the same
// validator the mock uses at run time.
import { describe, expect, it } from 'vitest';
import { formatErrors, SpecSchemas } from '../../lib/openapi-schemas.ts';
import { API_NAMES } from '../../lib/paths.ts';
import { loadBundle, type Spec } from '../helpers.ts';

interface Case {
  where: string;
  schemaAt: string[];
  value: unknown;
}

/** Walks the document and yields each example together with the path of the schema it belongs to. */
function* exampleCases(spec: Spec, node: unknown, at: string[]): Generator<Case> {
  if (!node || typeof node !== 'object') return;
  const obj = node as Spec;
  const resolve = (n: Spec) =>
    n?.$ref
      ? (n.$ref as string)
          .slice(2)
          .split('/')
          .reduce((a: Spec, k: string) => a[k], spec)
      : n;
  if (obj.schema && (obj.examples || obj.example !== undefined)) {
    // A media type or a parameter: its examples illustrate its `schema`.
    const values =
      obj.example !== undefined
        ? [['example', obj.example]]
        : Object.entries(obj.examples as Spec).map(([k, e]) => [k, resolve(e).value]);
    for (const [name, value] of values)
      yield { where: `${at.join('/')}/${name}`, schemaAt: [...at, 'schema'], value };
  }
  const isSchema =
    at.includes('schema') || at.includes('schemas') || at.includes('properties') || at.includes('items');
  if (isSchema && obj.example !== undefined && !obj.schema) {
    yield { where: `${at.join('/')}/example`, schemaAt: at, value: obj.example };
  }
  for (const [key, child] of Object.entries(obj)) {
    if (key === 'example' || key === 'examples') continue;
    yield* exampleCases(spec, child, [...at, key]);
  }
}

describe('every example validates', () => {
  for (const api of API_NAMES) {
    const spec = loadBundle(api);
    const schemas = new SpecSchemas(spec);
    const cases = [...exampleCases(spec, spec, [])];

    it(`${api}: has examples for every response`, () => {
      expect(cases.length).toBeGreaterThan(10);
    });

    it.each(cases.map((c) => [c.where, c] as const))(`${api}: %s`, (_where, c) => {
      expect(formatErrors(schemas.errors(c.schemaAt, c.value))).toEqual([]);
    });
  }
});
