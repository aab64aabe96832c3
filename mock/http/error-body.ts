// The `{error, code}` error body that /api/v2 documents (seed 000, Errors) and the admin API shares,
// and the sentence that lists a request's invalid inputs in it.
import type { Response } from 'express';
import type { InputProblem } from './contract.ts';

export interface ApiError {
  status: number;
  code: string;
  message: string;
  /** Seconds, sent as `Retry-After` (seed 000: "A 429 carries the retry delay"). */
  retryAfter?: number;
}

export function sendError(res: Response, error: ApiError): Response {
  if (error.retryAfter !== undefined) res.set('Retry-After', String(error.retryAfter));
  return res.status(error.status).json({ error: error.message, code: error.code });
}

/** `query.limit: must be <= 50; body.userId: must have required property 'userId'`. */
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
        if (e.keyword === 'enum')
          return `${where}: must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
        return `${where}${missing}: ${e.message}`;
      }),
    )
    .join('; ');
