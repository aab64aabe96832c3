// Handler maps typed from generated/ by operationId, in the manner of openapi-fetch's typed maps
// (docs/adr-0004-typed-handlers-and-error-catalogue.md). For each operation the handler receives its
// path parameters, query and JSON body as the contract types them and returns one of the operation's
// documented answers, `{status, body}`: a missing handler, an undocumented status or a body of the
// wrong shape does not compile. The contract router sends the answer (and, in tests, checks it at run
// time against the same contract).
import type { Request, Response } from 'express';

/** What openapi-typescript generates for one operation. */
interface OperationShape {
  parameters: { path?: unknown; query?: unknown };
  responses: object;
}

/** The `application/json` content of a request body or response, `undefined` when it has none. */
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;

/** The operation's request body: what the contract validated (absent when it documents none). */
type BodyOf<Op> = Op extends { requestBody: infer R }
  ? JsonOf<R>
  : Op extends { requestBody?: infer R }
    ? JsonOf<NonNullable<R>> | undefined
    : undefined;

/** Validated input: path parameters and query coerced to their schema types, defaults filled in. */
export interface Input<Op extends OperationShape> {
  params: NonNullable<Op['parameters']['path']>;
  query: NonNullable<Op['parameters']['query']>;
  body: BodyOf<Op>;
}

/** One documented answer of the operation: a status it documents and the body documented for it. */
export type Answer<Op extends OperationShape> = {
  [S in keyof Op['responses'] & number]: JsonOf<Op['responses'][S]> extends undefined
    ? { status: S; body?: undefined; headers?: Record<string, string> }
    : { status: S; body: JsonOf<Op['responses'][S]>; headers?: Record<string, string> };
}[keyof Op['responses'] & number];

export type TypedHandler<Op extends OperationShape> = (
  req: Request,
  res: Response,
  input: Input<Op>,
) => Answer<Op> | Promise<Answer<Op>>;

/** One handler per operation of `paths` (generated `PathOperations`), keyed by operationId. */
export type Handlers<Ops> = {
  [Id in keyof Ops]: Ops[Id] extends OperationShape ? TypedHandler<Ops[Id]> : never;
};

/** A 200 answer: `ok(body)` reads as the contract's default success. */
export const ok = <const B>(body: B) => ({ status: 200 as const, body });
