// Of the contract chain (../contract.ts), run once per operation, on its first request, before any of
// the request's steps: an operation of the bundled document compiled into what those steps need (its
// parameters with their validators, its body's validator, required flag and media types), so no
// schema is compiled again.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { resolveRef, type SpecSchemas } from '../../../lib/openapi-schemas.ts';
import type { Node } from '../../../lib/spec-walk.ts';

export type { Node };

export interface CompiledParameter {
  /** The parameter object (`name`, `in`, `required`, ...). */
  param: Node;
  /** Its schema, dereferenced (for coercion and the default). */
  schema: Node | undefined;
  validate: ValidateFunction;
}

export interface CompiledOperation {
  path: string;
  method: string;
  operation: Node;
  parameters: CompiledParameter[];
  body: {
    validate: ValidateFunction | null;
    required: boolean;
    /** The media types the body may have; empty when the operation takes none. */
    mediaTypes: string[];
  };
}

export function compileOperation(schemas: SpecSchemas, path: string, method: string): CompiledOperation {
  const spec = schemas.spec as Node;
  const item = spec.paths[path] as Node;
  const operation = item[method] as Node;
  // Where each schema sits in the document, so ajv resolves its `$ref`s as the document does.
  const refOrInline = (node: Node, inline: string[]) =>
    node.$ref ? (node.$ref as string).slice(2).split('/') : inline;
  const at = (where: string[]) => where.reduce((acc: Node, k) => acc[k], spec) as Node;
  const parameters = [
    ...(item.parameters ?? []).map((p: Node, i: number) =>
      refOrInline(p, ['paths', path, 'parameters', String(i)]),
    ),
    ...(operation.parameters ?? []).map((p: Node, i: number) =>
      refOrInline(p, ['paths', path, method, 'parameters', String(i)]),
    ),
  ].map((where: string[]) => {
    const param = at(where);
    return {
      param,
      schema: resolveRef(spec, param.schema),
      validate: schemas.validator([...where, 'schema']),
    };
  });
  const body = operation.requestBody
    ? refOrInline(operation.requestBody, ['paths', path, method, 'requestBody'])
    : null;
  const bodyNode = body ? at(body) : null;
  return {
    path,
    method,
    operation,
    parameters,
    body: {
      validate: bodyNode?.content?.['application/json']
        ? schemas.validator([...(body as string[]), 'content', 'application/json', 'schema'])
        : null,
      required: bodyNode?.required === true,
      mediaTypes: Object.keys(bodyNode?.content ?? {}),
    },
  };
}
