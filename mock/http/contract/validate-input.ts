// Of the contract chain (../contract.ts), run after coercion (coerce.ts), before the answer check
// (validate-output.ts): the coerced parameters and the body checked against the operation's schemas;
// every problem is collected, in the document's order, so one answer names them all.
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { Request } from 'express';
import { readableErrors } from '../../../lib/readable-errors.ts';
import type { ValidatedRequest } from './coerce.ts';
import type { CompiledOperation, CompiledParameter } from './compile.ts';

/** One invalid value: where it is (`body`, `path`, `query`) and the ajv errors for it. */
export interface InputProblem {
  in: 'path' | 'query' | 'body';
  /** The parameter name for path and query. */
  name?: string;
  errors: ErrorObject[];
}

/**
 * The problems of a request's input. Clears `input.body` when the request has none, whatever the
 * body parser made of it: an empty body is a missing one.
 */
export function inputProblems(
  req: Pick<Request, 'body' | 'get' | 'is'>,
  op: Pick<CompiledOperation, 'parameters' | 'body'>,
  input: ValidatedRequest,
  unsent: Set<CompiledParameter>,
): InputProblem[] {
  const problems: InputProblem[] = [];
  for (const p of op.parameters) {
    const { param, validate } = p;
    if (param.in !== 'path' && param.in !== 'query') continue;
    if (unsent.has(p)) {
      if (param.required)
        problems.push({ in: param.in, name: param.name, errors: [requiredError(param.name)] });
      continue;
    }
    const value = (param.in === 'path' ? input.params : input.query)[param.name];
    if (!validate(value))
      problems.push({ in: param.in, name: param.name, errors: readableErrors(validate.errors ?? []) });
  }
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  const { mediaTypes, required, validate } = op.body;
  if (hasBody && mediaTypes.length && !req.is(mediaTypes)) {
    problems.push({ in: 'body', errors: [mediaTypeError(mediaTypes)] });
  } else if (!hasBody) {
    if (required) problems.push({ in: 'body', errors: [requiredError('body')] });
    input.body = undefined;
  } else if (validate && !validate(req.body)) {
    problems.push({ in: 'body', errors: readableErrors(validate.errors ?? []) });
  }
  return problems;
}

const requiredError = (name: string): ErrorObject => ({
  instancePath: '',
  schemaPath: '#/required',
  keyword: 'required',
  params: { missingProperty: name },
  message: `must have required property '${name}'`,
});

const mediaTypeError = (types: string[]): ErrorObject => ({
  instancePath: '',
  schemaPath: '#/content',
  keyword: 'contentType',
  params: { types },
  message: `Content-Type must be ${types.join(' or ')}`,
});
