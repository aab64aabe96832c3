// A probe as a check: one request built from the contract's operation, sent, and its answer judged.
// The probes of ./auth.ts, ./refusals.ts and ./scope.ts are made with it, one per operation.
import { type Api, type Context, toolsOf } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import type { Check, Verdict } from '../../types.ts';
import type { Request } from '../common/judge.ts';
import { HARMLESS } from './harmless.ts';

/** A probe as a check: build the request, send it, judge the answer. */
export function probe(
  spec: Omit<Check, 'run'> & {
    api: 'v1' | 'v2';
    operationId: string;
    request: (ctx: Context) => Request;
    judge: (api: Api, e: Exchange) => Verdict;
  },
): Check {
  const { api: apiName, operationId, request, judge: verdictOf, ...check } = spec;
  return {
    ...check,
    run: async (ctx) => {
      const api = ctx[apiName];
      return verdictOf(api, await api.callRaw(operationId, request(ctx)));
    },
  };
}

/** The operations of an API that have a harmless request: every one of its contract. */
export const operationIds = (api: 'v1' | 'v2') => Object.keys(HARMLESS[api]);
/** How a probe's title names an operation: by its id, and for v2 the tools that call it. */
export const specOf = (api: 'v1' | 'v2') =>
  api === 'v1'
    ? (id: string) => id
    : (id: string) => `${id}${toolsOf(id).length ? ` (${toolsOf(id).join(', ')})` : ''}`;
