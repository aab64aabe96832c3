// Step 5 of the contract chain (in tests): each JSON answer checked against the responses its
// operation documents, its schema and, for an error, the codes the response lists (`x-error-codes`).
import type { Response } from 'express';
import { resolveRef, type SpecSchemas } from '../../../lib/openapi-schemas.ts';
import type { CompiledOperation, Node } from './compile.ts';

export type MismatchReport = (res: Response, status: number, errors: string[], operation: Node) => void;

/** Why a JSON answer (its text as sent) departs from the operation's documented responses; empty when it does not. */
export function answerMismatches(
  schemas: SpecSchemas,
  op: Pick<CompiledOperation, 'operation' | 'path' | 'method'>,
  status: number,
  text: string,
): string[] {
  const { operation, path, method } = op;
  const key = operation.responses[String(status)]
    ? String(status)
    : operation.responses.default
      ? 'default'
      : null;
  if (!key) return [`status ${status} is not documented`];
  const response = operation.responses[key] as Node;
  const at = response.$ref
    ? [...(response.$ref as string).slice(2).split('/'), 'content', 'application/json', 'schema']
    : ['paths', path, method, 'responses', key, 'content', 'application/json', 'schema'];
  if (!resolveRef(schemas.spec, response)?.content?.['application/json']?.schema)
    return [`status ${status} documents no JSON body`];
  const body = JSON.parse(text);
  const errors = schemas.errors(at, body);
  if (errors.length) return errors.map((e) => `${e.instancePath || '/'}: ${e.message}`);
  // The error-code catalogue: an error answer carries a code its response documents.
  const codes = resolveRef(schemas.spec, response)?.['x-error-codes'] as string[] | undefined;
  const code = (body as { code?: unknown } | null)?.code;
  if (codes && !codes.includes(code as string))
    return [`code ${code} is not documented for status ${status} (x-error-codes: ${codes.join(', ')})`];
  return [];
}

/**
 * Wraps `res.send` so that the JSON answer (`res.json` or a serialised body) is checked before it
 * goes out; a departure goes to `report` instead of the answer.
 */
export function checkAnswer(
  res: Response,
  schemas: SpecSchemas,
  op: Pick<CompiledOperation, 'operation' | 'path' | 'method'>,
  report: MismatchReport,
): void {
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    // The report answers through res.send too: it is not checked again.
    res.send = send;
    if (typeof body !== 'string' || !String(res.get('content-type') ?? '').includes('json'))
      return send(body);
    const status = res.statusCode;
    const errors = answerMismatches(schemas, op, status, body);
    if (!errors.length) return send(body);
    report(res, status, errors, op.operation);
    return res;
  };
}
