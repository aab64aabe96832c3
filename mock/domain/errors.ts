// Domain errors: what went wrong in the platform's own terms. Each HTTP layer maps them onto its
// API's documented error shape (v1 `{status, message, errors?, data?}`, v2 and admin `{error, code}`).
// The code is one of the contracts' catalogue (`x-error-codes`, generated into `ErrorCode`): the domain
// cannot name a code no contract documents (docs/adr-0004-typed-handlers-and-error-catalogue.md).
import type { ErrorCode as AdminErrorCode } from '../../generated/admin.ts';
import type { ErrorCode as V2ErrorCode } from '../../generated/v2.ts';

/** A code of the v2 or admin catalogue: the APIs whose error body carries one. */
export type ErrorCode = V2ErrorCode | AdminErrorCode;

export type DomainErrorKind =
  | 'validation' // input breaks a platform rule (unique e-mail, unknown role, ...)
  | 'not_found'
  | 'conflict' // the resource is in a state that refuses the change
  | 'unprocessable' // e.g. banning a user who is expert on courses
  | 'forbidden';

export interface DomainErrorDetails {
  /** Field → messages, keyed as the v1 seed keys them (`email`, `attributes[0].name`). */
  fields?: Record<string, string[]>;
  /** Extra data of the error (the 422 of a ban carries `courses`). */
  data?: Record<string, unknown>;
  /** Seconds after which the same request may succeed (a quota's reset), sent as `Retry-After`. */
  retryAfter?: number;
}

/** Made by the factories below, which name the kind; the kind picks v1's status, the code v2's and admin's. */
export class DomainError extends Error {
  readonly fields: Record<string, string[]>;
  readonly data?: Record<string, unknown>;
  readonly retryAfter?: number;
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: ErrorCode,
    message: string,
    details: DomainErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.fields = details.fields ?? {};
    if (details.data) this.data = details.data;
    if (details.retryAfter !== undefined) this.retryAfter = details.retryAfter;
  }
}

export const invalid = (message: string, fields: Record<string, string[]> = {}) =>
  new DomainError('validation', 'VALIDATION_ERROR', message, { fields });
export const notFound = (what: string, code: ErrorCode = 'NOT_FOUND') =>
  new DomainError('not_found', code, `${what} not found`);
export const conflict = (code: ErrorCode, message: string, details?: DomainErrorDetails) =>
  new DomainError('conflict', code, message, details);
export const unprocessable = (code: ErrorCode, message: string, details?: DomainErrorDetails) =>
  new DomainError('unprocessable', code, message, details);
export const forbidden = (code: ErrorCode, message: string) => new DomainError('forbidden', code, message);

/** Collects field errors, then throws them all at once (nothing is changed before `throwIfAny`). */
export class FieldErrors {
  private readonly fields: Record<string, string[]> = {};
  add(field: string, message: string): void {
    this.fields[field] = [...(this.fields[field] ?? []), message];
  }
  get empty(): boolean {
    return Object.keys(this.fields).length === 0;
  }
  throwIfAny(message = 'Validation failed'): void {
    if (!this.empty) throw invalid(message, this.fields);
  }
}
