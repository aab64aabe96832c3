// The operations of a bundled document that the contract router routes (get, put, post, delete,
// patch), in document order, and the table that finds one by method and path: the one walk of a
// contract's paths that the router (../contract.ts) and the request journal (../journal/contracts.ts)
// share, so that both name the same operation for a request.
import {
  HTTP_METHODS,
  type HttpMethod,
  type Node,
  operations,
  type SpecOperation,
} from '../../../lib/spec-walk.ts';
import { RouteTable } from './route-table.ts';

/**
 * The methods of lib/spec-walk.ts's list that the contracts' operations use: HEAD follows GET in
 * Express, OPTIONS lists a path's methods (../methods.ts), and no contract has TRACE.
 */
export const ROUTED_METHODS: readonly HttpMethod[] = HTTP_METHODS.filter(
  (m) => m !== 'head' && m !== 'options' && m !== 'trace',
);

/** The operations of `spec` that the router routes, in document order (methods in ROUTED_METHODS order). */
export const routedOperations = (spec: Node): SpecOperation[] =>
  operations(spec).filter((o) => ROUTED_METHODS.includes(o.method));

/** A table of `spec`'s routed operations by method and path, each holding what `make` makes of it. */
export function operationTable<T>(spec: Node, make: (op: SpecOperation) => T): RouteTable<T> {
  const table = new RouteTable<T>();
  for (const op of routedOperations(spec)) table.add(op.method, op.path, make(op));
  return table;
}
