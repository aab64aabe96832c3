// JSON Schema validation of values against the schemas inside a bundled OpenAPI 3.1 document.
// The whole document is registered once; each schema is compiled on first use by its JSON pointer,
// so internal `$ref`s (`#/components/schemas/...`) resolve as they do in the spec.
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from './ajv.ts';
import { readableErrors } from './readable-errors.ts';

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
    this.ajv = createAjv('openapi', options);
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
    return validate(value) ? [] : readableErrors(validate.errors ?? []);
  }

  /** How many schemas have been compiled so far (compiled once, then reused). */
  get compiledCount(): number {
    return this.cache.size;
  }
}

/** One line per error: `/email: must match format "email"`. */
export const formatErrors = (errors: ErrorObject[]) =>
  errors.map((e) => `${e.instancePath || '/'}: ${e.message ?? 'is invalid'}`);
