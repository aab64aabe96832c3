// Whether a journalled request and its answer kept the contract. The request's verdict is the
// contract router's own (the input problems it refused the request for); the answer is judged here,
// once, on the first read — so recording costs nothing — against the response its operation documents
// for the status, resolved as the contract router's answer check resolves it (contract/validate-output.ts).
import { formatErrors } from '../../../lib/openapi-schemas.ts';
import type { Node } from '../../../lib/spec-walk.ts';
import { documentedResponse } from '../contract/validate-output.ts';
import { describeProblems } from '../error-body.ts';
import { contractApiOf, type JournalContracts } from './contracts.ts';
import type { JournalVerdict, Shown, Stored } from './entry.ts';

/** The verdict on `s`, worked out on first read and kept; `answer` is its answer as shown (view.ts). */
export function verdictOf(
  s: Stored,
  contracts: JournalContracts,
  answer: () => Shown['response'],
): JournalVerdict {
  if (!s.verdict) s.verdict = judge(s, contracts, answer);
  return s.verdict;
}

function judge(s: Stored, contracts: JournalContracts, answer: () => Shown['response']): JournalVerdict {
  // A fault's answer is the test's, not the API's, and the request never reached the contract router.
  if (s.faultAnswered) return { request: 'unchecked', response: 'unchecked', errors: [] };
  const errors: string[] = [];
  const request = s.operationId === null ? 'unchecked' : s.inputProblems ? 'invalid' : 'valid';
  if (s.inputProblems) errors.push(...describeProblems(s.inputProblems).split('; '));
  const api = contractApiOf(s.api);
  const found = api && s.operationId ? contracts.operation(api, s.operationId) : undefined;
  if (!api || !found) return { request, response: 'unchecked', errors };
  const documented = documentedResponse(contracts.spec(api), found, s.status);
  if (!documented)
    return { request, response: 'invalid', errors: [...errors, `status ${s.status} is not documented`] };
  const content = documented.response?.content as Node | undefined;
  const shown = answer();
  const type = shown.headers['content-type'] ?? '';
  if (!content || !type.includes('json') || shown.text === null)
    return { request, response: shown.text === null && content ? 'unchecked' : 'valid', errors };
  if (!content['application/json']?.schema)
    return {
      request,
      response: 'invalid',
      errors: [...errors, `status ${s.status} documents no JSON body`],
    };
  let body: unknown;
  try {
    body = JSON.parse(shown.text);
  } catch {
    return { request, response: 'invalid', errors: [...errors, 'the answer is not valid JSON'] };
  }
  // The schema alone: whether an error's code is one its response lists (`x-error-codes`) is checked
  // by the contract router's answer check (in tests), not here.
  const departures = formatErrors(contracts.schemasOf(api).errors(documented.schemaAt, body));
  return {
    request,
    response: departures.length ? 'invalid' : 'valid',
    errors: [...errors, ...departures.map((d) => `answer ${d}`)],
  };
}
