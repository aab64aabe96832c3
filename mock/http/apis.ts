// The mock's three APIs, one row each: where each is served, its bundled contract, its error shape
// and its credentials. Every part that tells the APIs apart reads this table — the app's mounts and
// error answers (mock/app.ts), the Host check (hosts.ts), the refusals before any router
// (refusals.ts), the 405s (methods.ts), the request journal (journal/capture.ts, journal/contracts.ts),
// the index page (index-page.ts) and each router's answer to invalid input — so the error bodies of an
// API are written in one place.
import type { Response } from 'express';
import { errorCodes as adminErrorCodes } from '../../generated/admin.ts';
import { errorCodes as v2ErrorCodes } from '../../generated/v2.ts';
import type { ApiName } from '../../lib/paths.ts';
import type { DomainError, ErrorCode } from '../domain/errors.ts';
import type { InputProblem } from './contract/validate-input.ts';
import { type ApiError, describeProblems } from './error-body.ts';
import { invalidV1, v1ErrorOf } from './v1/errors.ts';

export type { ApiName };

export interface Api {
  /** Also the name of its bundled contract: generated/openapi/<name>.json, `Specs[name]` (mock/specs.ts). */
  name: ApiName;
  /** Where it is served: its router is mounted here, and a request path under it is the API's. */
  prefix: string;
  /** v1 answers errors `{status, message}` (seed 001, "Errors"); v2 and admin `{error, code}` (error-body.ts). */
  errorShape: 'v1' | 'error-code';
  /** The header its credentials travel in, and what it holds (as the index page shows them). */
  auth: { header: string; value: string };
  /** Its name on the index page (`GET /`). */
  title: string;
}

export const APIS: readonly Api[] = [
  {
    name: 'v1',
    prefix: '/openapi/v1',
    errorShape: 'v1',
    auth: { header: 'X-API-KEY', value: '<site API key>' },
    title: 'Integration REST API (v1)',
  },
  {
    name: 'v2',
    prefix: '/api/v2',
    errorShape: 'error-code',
    auth: { header: 'X-MCP-Key', value: '<MCP key>' },
    title: 'MCP backend (v2)',
  },
  {
    name: 'admin',
    prefix: '/__admin',
    errorShape: 'error-code',
    auth: { header: 'Authorization', value: 'Bearer <admin token>' },
    title: 'Admin API of the mock',
  },
];

/** The table's row of `name`. */
export const apiNamed = (name: ApiName): Api => APIS.find((a) => a.name === name) as Api;

/** Where the APIs are served, in the table's order. */
export const API_PREFIXES = APIS.map((a) => a.prefix);

/**
 * Which API a request path belongs to: `other` for `/`, the console, the docs and any other path. In
 * any case, as the router routes it (Express's routing ignores case: `/__ADMIN/faults` is the admin API).
 */
export function apiOf(path: string): ApiName | 'other' {
  const lower = path.toLowerCase();
  for (const a of APIS) if (lower.startsWith(a.prefix)) return a.name;
  return 'other';
}

/** Whether errors of `name` are v1's `{status, message}`; a path of no API answers `{error, code}`. */
const v1Shaped = (name: ApiName | 'other') => name !== 'other' && apiNamed(name).errorShape === 'v1';

/** The body of an error answer in the shape of API `name`. */
export function errorBodyOf(
  name: ApiName | 'other',
  status: number,
  code: ApiError['code'],
  message: string,
): { status: number; message: string } | { error: string; code: ApiError['code'] } {
  return v1Shaped(name) ? { status, message } : { error: message, code };
}

/** Answers `status` in the error shape of API `name` (v1 `{status, message}`, others `{error, code}`). */
export function sendApiError(
  name: ApiName | 'other',
  res: Response,
  status: number,
  code: ApiError['code'],
  message: string,
): void {
  res.status(status).json(errorBodyOf(name, status, code, message));
}

/** `{error, code}` statuses of the domain's errors: the status the catalogue documents the code with. */
const STATUS_OF: Record<ErrorCode, number> = { ...adminErrorCodes, ...v2ErrorCodes };

/**
 * The answer to a rule the platform refused (a `DomainError`): v1 by the error's kind, with its fields
 * (seed 001, "Errors", v1/errors.ts); the others with the status of its code.
 */
export function domainErrorAnswer(
  name: ApiName | 'other',
  error: DomainError,
): { status: number; body: unknown; headers?: Record<string, string> } {
  const headers =
    error.retryAfter !== undefined ? { headers: { 'Retry-After': String(error.retryAfter) } } : {};
  if (v1Shaped(name)) {
    const body = v1ErrorOf(error);
    return { status: body.status, body, ...headers };
  }
  return { status: STATUS_OF[error.code], body: { error: error.message, code: error.code }, ...headers };
}

/**
 * Answers a request whose input its operation's schemas refuse (the contract router's `invalid`):
 * v1 with the seed's field-keyed `errors` (v1/errors.ts), the others with every problem in one sentence.
 */
export function sendInvalid(name: ApiName, res: Response, problems: InputProblem[]): void {
  if (v1Shaped(name)) invalidV1(res, problems, res.req.body);
  else sendApiError(name, res, 400, 'VALIDATION_ERROR', `Invalid request: ${describeProblems(problems)}`);
}
