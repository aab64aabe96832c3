// The answer check of the contract chain (../contract.ts), in tests: each JSON answer, as the handler's
// value, checked against the responses its operation documents, its schema and, for an error, the codes
// the response lists (`x-error-codes`); the contract router reports a departure instead of sending the
// answer, before the cache (cache.ts) could keep it.
// Which response an operation documents for a status is resolved here once (`documentedResponse`),
// for this check and for the request journal's verdict (../journal/verdict.ts).
import type { Response } from 'express';
import { resolveRef, type SpecSchemas } from '../../../lib/openapi-schemas.ts';
import type { CompiledOperation, Node } from './compile.ts';

export type MismatchReport = (res: Response, status: number, errors: string[], operation: Node) => void;

/** The response an operation documents for a status: its own, else `default`. */
export interface DocumentedResponse {
  /** The key it is documented under: the status, or `default`. */
  key: string;
  /** The response object, its `$ref` followed. */
  response: Node | undefined;
  /** Where its JSON body's schema sits in the document, so that ajv resolves its `$ref`s as the document does. */
  schemaAt: string[];
}

/**
 * The response `op` documents for `status`, or null when it documents none: the one resolution of
 * "the documented response" that the answer check here and the request journal's verdict share.
 */
export function documentedResponse(
  spec: Node,
  op: Pick<CompiledOperation, 'operation' | 'path' | 'method'>,
  status: number,
): DocumentedResponse | null {
  const { operation, path, method } = op;
  const responses = (operation.responses ?? {}) as Node;
  const key = responses[String(status)] ? String(status) : responses.default ? 'default' : null;
  if (!key) return null;
  const response = responses[key] as Node;
  const schemaAt = response.$ref
    ? [...(response.$ref as string).slice(2).split('/'), 'content', 'application/json', 'schema']
    : ['paths', path, method, 'responses', key, 'content', 'application/json', 'schema'];
  return { key, response: resolveRef(spec, response), schemaAt };
}

/**
 * Why a JSON answer departs from the operation's documented responses; empty when it does not.
 * `body` is the handler's value itself, checked before it is serialised (the answer is turned into
 * text once, by the contract router, for the wire, the cache and the journal alike).
 */
export function checkAnswer(
  schemas: SpecSchemas,
  op: Pick<CompiledOperation, 'operation' | 'path' | 'method'>,
  status: number,
  body: unknown,
): string[] {
  const documented = documentedResponse(schemas.spec, op, status);
  if (!documented) return [`status ${status} is not documented`];
  if (!documented.response?.content?.['application/json']?.schema)
    return [`status ${status} documents no JSON body`];
  const errors = schemas.errors(documented.schemaAt, body);
  if (errors.length) return errors.map((e) => `${e.instancePath || '/'}: ${e.message}`);
  // The error-code catalogue: an error answer carries a code its response documents.
  const codes = documented.response?.['x-error-codes'] as string[] | undefined;
  const code = (body as { code?: unknown } | null)?.code;
  if (codes && !codes.includes(code as string))
    return [`code ${code} is not documented for status ${status} (x-error-codes: ${codes.join(', ')})`];
  return [];
}
