// What the steps that handle one request tell the steps after them, and the request journal once the
// answer is sent: the fault that answered it, the operation the contract router matched, why its input
// was refused, its validated input, and who its credentials named (v1's tenant, v2's caller). It lives
// on Express's `res.locals` under these names (a test may set one there itself); it is declared once
// here, so that every writer and reader agrees on the names and types instead of casting.
import type { Response } from 'express';
import type { Caller } from '../domain/access.ts';
import type { TenantState } from '../domain/tenant-state.ts';
import type { ValidatedRequest } from './contract/coerce.ts';
import type { InputProblem } from './contract/validate-input.ts';

export interface RequestContext {
  /** The fault that answered or delayed the request (faults.ts). */
  faultId?: string;
  /** The operation the contract router matched (contract.ts), set before authentication. */
  operationId?: string;
  /** Why the input was refused (contract.ts; admin/router.ts for unknown query parameters). */
  inputProblems?: InputProblem[];
  /** What the contract router's steps hand on to the handler: the input, coerced and validated (contract.ts). */
  contract?: { input: ValidatedRequest };
  /** The answer cache's key the answer is to be kept under, when the cache admits it (contract/cache.ts). */
  keepAs?: string;
  /** v1: the tenant the site API key selected (v1/router.ts). */
  tenant?: TenantState;
  /** v2: the MCP key, its user and its tenant (v2/router.ts). */
  caller?: Caller;
}

/** The context of the request that `res` answers, to read or to set. */
export const contextOf = (res: Response): RequestContext => res.locals as RequestContext;

/**
 * A part of the context that a step before the handler always sets (the v1 tenant, the v2 caller,
 * the validated input): its absence is a fault of the chain, named rather than read as undefined.
 */
export function required<K extends keyof RequestContext>(
  res: Response,
  key: K,
): NonNullable<RequestContext[K]> {
  const value = contextOf(res)[key];
  if (value === undefined || value === null)
    throw new Error(`the request has no ${key}: the step that sets it has not run`);
  return value;
}
