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

/** The validators of each contract document, by the document: see `SpecSchemas.of`. */
const shared = new WeakMap<object, SpecSchemas>();

export class SpecSchemas {
  /**
   * The validators of `spec` that every user of the same document object shares, each compiled once
   * a process: an app made again over the same contracts (tests make hundreds) compiles nothing again.
   * A validator is a pure function of its input, so sharing it shares nothing else.
   */
  static of(spec: Record<string, unknown>): SpecSchemas {
    let schemas = shared.get(spec);
    if (!schemas) {
      schemas = new SpecSchemas(spec);
      shared.set(spec, schemas);
    }
    return schemas;
  }

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
      validate = this.ajvCompile(key);
      this.cache.set(key, validate);
    }
    return validate;
  }

  /** Compiles the schema at a JSON pointer into the document. */
  private ajvCompile(key: string): ValidateFunction {
    const validate = this.ajv.getSchema(`${DOC_ID}#${key.split('/').map(encodeURIComponent).join('/')}`);
    if (!validate) throw new Error(`no schema at ${key}`);
    return validate;
  }

  /** Errors of `value` against the schema at `at`, or an empty list. */
  errors(at: readonly string[], value: unknown): ErrorObject[] {
    const validate = this.validator(at);
    return validate(value) ? [] : readableErrors(validate.errors ?? []);
  }
}

/** One line per error: `/email: must match format "email"`. */
export const formatErrors = (errors: ErrorObject[]) =>
  errors.map((e) => `${e.instancePath || '/'}: ${e.message ?? 'is invalid'}`);
