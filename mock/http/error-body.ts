// The `{error, code}` error body that /api/v2 documents (seed 000, Errors) and the admin API shares,
// and the sentence that lists a request's invalid inputs in it.
import type { Response } from 'express';
import type { ErrorCode } from '../domain/errors.ts';
import type { InputProblem } from './contract/validate-input.ts';

/**
 * Codes of answers that belong to no operation, so to no catalogue: an unknown route's body parse
 * failure is VALIDATION_ERROR (catalogued), but these are the mock's own (docs/mock.md).
 */
export type OwnCode =
  | 'INTERNAL'
  | 'CONTRACT_VIOLATION'
  | 'BAD_REQUEST'
  | 'HEADERS_TOO_LARGE'
  | 'REQUEST_TIMEOUT'
  | 'METHOD_NOT_ALLOWED'
  | 'HOST_NOT_ALLOWED';

export interface ApiError {
  status: number;
  /** A code of the contracts' catalogue (`x-error-codes`), or one of the mock's own. */
  code: ErrorCode | OwnCode;
  message: string;
  /** Seconds, sent as `Retry-After` (seed 000: "A 429 carries the retry delay"). */
  retryAfter?: number;
}

export function sendError(res: Response, error: ApiError): Response {
  if (error.retryAfter !== undefined) res.set('Retry-After', String(error.retryAfter));
  return res.status(error.status).json({ error: error.message, code: error.code });
}

/** The same error as a handler's answer (./typed-handlers.ts): the contract types the status and the body. */
export const errorAnswer = <S extends number>(error: ApiError & { status: S }) => ({
  status: error.status,
  body: { error: error.message, code: error.code },
  ...(error.retryAfter !== undefined ? { headers: { 'Retry-After': String(error.retryAfter) } } : {}),
});

/** The most input problems an answer names one by one. */
const MAX_DESCRIBED = 10;

/** `query.limit: must be <= 50; body.userId: must have required property 'userId'`; ten at most, then how many more. */
export const describeProblems = (problems: InputProblem[]) =>
  problems
    .flatMap((p) =>
      p.errors.map((e) => {
        const where = p.in === 'body' ? `body${e.instancePath.replaceAll('/', '.')}` : `${p.in}.${p.name}`;
        const missing =
          e.keyword === 'required' && p.in === 'body' ? `.${String(e.params.missingProperty)}` : '';
        // Name the field that is not allowed: a typo must be found from the answer alone.
        if (e.keyword === 'additionalProperties')
          return `${where}.${String(e.params.additionalProperty)}: unknown field, not allowed here`;
        if (e.keyword === 'enum') {
          const values = e.params.allowedValues as unknown[];
          // A long list (the ISO 639-1 codes of LanguageCode) is named by its count and its ends.
          const named =
            values.length > 12
              ? `the ${values.length} values the contract lists (${values.slice(0, 3).join(', ')}, …, ${String(values.at(-1))})`
              : values.join(', ');
          return `${where}: must be one of ${named}`;
        }
        return `${where}${missing}: ${e.message}`;
      }),
    )
    .reduce<string[]>((shown, line, i, all) => {
      // At most ten, then how many more: 5 000 bad e-mails in fixtures are not a 1.4 MB answer.
      if (i < MAX_DESCRIBED) shown.push(line);
      else if (i === MAX_DESCRIBED) shown.push(`and ${all.length - MAX_DESCRIBED} more`);
      return shown;
    }, [])
    .join('; ');
