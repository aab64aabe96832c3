// Domain errors: what went wrong in the platform's own terms. Each HTTP layer maps them onto its
// API's documented error shape (v1 `{status, message, errors?, data?}`, v2 `{error, code}`).

export type DomainErrorKind =
  | 'validation' // input breaks a platform rule (unique e-mail, unknown role, ...)
  | 'not_found'
  | 'conflict' // the resource is in a state that refuses the change
  | 'unprocessable' // e.g. banning a user who is expert on courses
  | 'forbidden';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Field → messages, keyed as the v1 seed keys them (`email`, `attributes[0].name`). */
    readonly fields: Record<string, string[]> = {},
    /** Extra data of the error (the 422 of a ban carries `courses`). */
    readonly data?: Record<string, unknown>,
    /** A stable code for APIs that have one (v2). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string, code = 'NOT_FOUND') =>
  new DomainError('not_found', `${what} not found`, {}, undefined, code);

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
    if (!this.empty) throw new DomainError('validation', message, this.fields, undefined, 'VALIDATION_ERROR');
  }
}
