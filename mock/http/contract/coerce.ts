// Of the contract chain (../contract.ts), run after the answer cache (cache.ts), before validation
// (validate-input.ts): path and query values arrive as strings; each is turned into what its schema
// says (or given the schema's default when absent and optional) before it is validated.
import type { Request } from 'express';
import type { CompiledParameter, Node } from './compile.ts';

/** The input a handler receives: coerced parameters and the parsed body. */
export interface ValidatedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/** A value turned into the type its schema names, when the text is one; otherwise left as sent. */
export function coerce(value: unknown, schema: Node | undefined): unknown {
  if (typeof value !== 'string' || !schema) return value;
  const types = ([] as string[]).concat(schema.type ?? []);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value))
    return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * The request's parameters, coerced, with the defaults of absent optional ones; `unsent` holds the
 * parameters the request did not send (a default is not validated, a required one is missing).
 */
export function coerceParameters(
  req: Pick<Request, 'params' | 'query' | 'body'>,
  parameters: CompiledParameter[],
): { input: ValidatedRequest; unsent: Set<CompiledParameter> } {
  const input: ValidatedRequest = { params: {}, query: {}, body: req.body };
  const unsent = new Set<CompiledParameter>();
  for (const p of parameters) {
    const { param, schema } = p;
    const source = param.in === 'path' ? req.params : param.in === 'query' ? (req.query as Node) : undefined;
    if (!source) continue;
    const target = param.in === 'path' ? input.params : input.query;
    const raw = source[param.name];
    if (raw === undefined) {
      unsent.add(p);
      if (!param.required && schema?.default !== undefined) target[param.name] = schema.default;
      continue;
    }
    target[param.name] = coerce(raw, schema);
  }
  return { input, unsent };
}
