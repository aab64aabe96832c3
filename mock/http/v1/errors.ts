// The v1 error object (seed 001, "Errors"): `{status, message, errors?, data?}`, with `errors`
// keyed by field the way the seed keys them (`email`, `attributes[0].name`, `attributes.region`).
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { Response } from 'express';
import type { DomainError } from '../../domain/errors.ts';
import type { InputProblem } from '../contract/validate-input.ts';

export interface V1Error {
  status: number;
  message: string;
  errors?: Record<string, string[]>;
  data?: Record<string, unknown>;
}

export const sendV1Error = (res: Response, error: V1Error) => res.status(error.status).json(error);

const STATUS_OF: Record<DomainError['kind'], number> = {
  validation: 400,
  not_found: 404,
  conflict: 400,
  unprocessable: 422,
  forbidden: 403,
};

export function v1ErrorOf(error: DomainError): V1Error {
  const status = STATUS_OF[error.kind];
  const message = status === 404 ? capitalise(error.message) : error.message;
  return {
    status,
    message,
    ...(Object.keys(error.fields).length ? { errors: error.fields } : {}),
    ...(error.data ? { data: error.data } : {}),
  };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `/0/extraData/1` → `[0].extraData[1]`. */
function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : `.${seg.replaceAll('~1', '/').replaceAll('~0', '~')}`))
    .join('')
    .replace(/^\./, '');
}

/** The seed's own wording where it gives one (seed 001, "Custom attributes": validation failure). */
function messageFor(field: string, e: ErrorObject): string {
  const leaf = field.split('.').at(-1) ?? field;
  if (/^attributes\[\d+]\.type$/.test(field)) return 'invalid attribute type';
  if (/^attributes\[\d+]\.extraData$/.test(field)) return 'options required for choice type attributes';
  if (/^attributes\[\d+]\.position$/.test(field)) return 'position must be a positive integer';
  if (e.keyword === 'required') return `${leaf} is required`;
  if (e.keyword === 'contentType') return e.message ?? 'unsupported Content-Type';
  if (e.keyword === 'additionalProperties') return `${String(e.params.additionalProperty)} is not allowed`;
  return `${leaf} ${e.message ?? 'is invalid'}`;
}

/**
 * Turns schema failures into the seed's 400. Bodies that are arrays are the attribute definition
 * lists, whose fields the seed keys `attributes[0].name`.
 */
export function invalidV1(res: Response, problems: InputProblem[], body: unknown): void {
  // Keys are field names a client chose (an unknown `constructor` or `__proto__` among them): no prototype.
  const errors: Record<string, string[]> = Object.create(null);
  for (const problem of problems) {
    for (const e of problem.errors) {
      // `if`/`then` failures repeat what the `then` branch already reported.
      if (e.keyword === 'if') continue;
      let field = problem.in === 'body' ? fieldPath(e.instancePath) : (problem.name ?? problem.in);
      if (problem.in === 'body' && Array.isArray(body)) field = `attributes${field}`;
      if (e.keyword === 'required' && problem.in === 'body') {
        const missing = String(e.params.missingProperty);
        field = missing === 'body' ? 'body' : field ? `${field}.${missing}` : missing;
      }
      if (e.keyword === 'additionalProperties')
        field = [field, String(e.params.additionalProperty)].filter(Boolean).join('.');
      const key = field || 'body';
      const message = messageFor(key, e);
      const messages = errors[key] ?? [];
      if (!messages.includes(message)) errors[key] = [...messages, message];
    }
  }
  sendV1Error(res, { status: 400, message: 'Validation failed', errors });
}
