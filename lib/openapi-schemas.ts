// JSON Schema validation of values against the schemas inside a bundled OpenAPI 3.1 document.
// The whole document is registered once; each schema is compiled on first use by its JSON pointer,
// so internal `$ref`s (`#/components/schemas/...`) resolve as they do in the spec.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = 'lmskit:spec';

// `$ref` resolution lives with the rest of the spec walking; re-exported for the callers of this module.
export { resolveRef } from './spec-walk.ts';

/** `['paths', '/users', 'post']` → `/paths/~1users/post` (RFC 6901). */
export const pointer = (segments: readonly string[]) =>
  segments.map((s) => `/${s.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

export class SpecSchemas {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(
    readonly spec: Record<string, unknown>,
    options: { coerceTypes?: boolean; useDefaults?: boolean } = {},
  ) {
    // OpenAPI schemas carry keywords JSON Schema does not know (example, discriminator, x-...),
    // so the strict mode that the tool schemas get would refuse them.
    // strictNumbers stays on: NaN and ±Infinity (a huge number in a query or body) are not numbers.
    // validateSchema off: the documents are checked against the OpenAPI and JSON Schema meta-schemas
    // by `npm run lint`; checking them again here compiled the meta-schema and walked the whole
    // document on every start, a sixth of the mock's start-up time.
    this.ajv = new Ajv2020({
      strict: false,
      strictNumbers: true,
      allErrors: true,
      validateSchema: false,
      ...options,
    });
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(spec, DOC_ID);
  }

  /** The validator of the schema at `at` (path segments into the document). */
  validator(at: readonly string[]): ValidateFunction {
    const key = pointer(at);
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.getSchema(`${DOC_ID}#${key.split('/').map(encodeURIComponent).join('/')}`);
      if (!validate) throw new Error(`no schema at ${key}`);
      this.cache.set(key, validate);
    }
    return validate;
  }

  /** Errors of `value` against the schema at `at`, or an empty list. */
  errors(at: readonly string[], value: unknown): ErrorObject[] {
    const validate = this.validator(at);
    return validate(value) ? [] : [...(validate.errors ?? [])];
  }

  /** How many schemas have been compiled so far (compiled once, then reused). */
  get compiledCount(): number {
    return this.cache.size;
  }
}

/** One line per error: `/email: must match format "email"`. */
export const formatErrors = (errors: ErrorObject[]) =>
  errors.map((e) => `${e.instancePath || '/'}: ${e.message ?? 'is invalid'}`);
