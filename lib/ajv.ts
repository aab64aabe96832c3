// The one place ajv is configured, for the kit's two kinds of schema:
// - `tool`: the MCP tool schemas (mcp-schema/), held strictly: unknown keywords, ambiguous types and
//   the like are errors, and `x-assumed` is the one extension keyword a tool schema may carry;
// - `openapi`: the schemas inside a bundled OpenAPI 3.1 document, which carry keywords JSON Schema
//   does not know (example, discriminator, x-…), so strict mode would refuse them. strictNumbers
//   stays on: NaN and ±Infinity (a huge number in a query or body) are not numbers. validateSchema
//   is off: `npm run lint` checks the documents against the OpenAPI and JSON Schema meta-schemas, and
//   checking them again here compiled the meta-schema on every start, a sixth of the mock's start-up.
//   `format: binary` (an upload's part) accepts anything. Errors are verbose: each carries the schema
//   that failed, whose `x-refusal` words the refusal (lib/readable-errors.ts).
// Both know ajv-formats' formats and report every error, not the first.
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export type SchemaKind = 'tool' | 'openapi';

export function createAjv(
  kind: SchemaKind,
  options: Pick<Options, 'useDefaults' | 'coerceTypes'> = {},
): Ajv2020 {
  const ajv =
    kind === 'tool'
      ? new Ajv2020({ strict: true, allErrors: true, useDefaults: false, ...options })
      : new Ajv2020({
          strict: false,
          strictNumbers: true,
          allErrors: true,
          validateSchema: false,
          verbose: true,
          ...options,
        });
  addFormats(ajv);
  if (kind === 'tool') ajv.addVocabulary(['x-assumed']);
  else ajv.addFormat('binary', true);
  return ajv;
}
