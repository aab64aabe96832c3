// The fault injector: the injected faults (admin API, "Faults"), outside the platform state, which
// describe this run only (with a shared store, the run of every replica), and the middleware that
// answers or delays a request with one before any router sees it.
// The request journal is journal.ts (journal/).
import type { NextFunction, Request, Response } from 'express';
import type { components } from '../../generated/admin.ts';
import { MCP_TOOL_HEADER } from '../../lib/mcp-headers.ts';
import type { SharedLog } from '../domain/platform.ts';
import { apiOf } from './apis.ts';
import { jsonMatcher } from './body-match.ts';
import { jsonBody } from './json-body.ts';
import { contextOf } from './request-context.ts';

/** Faults in force at a time (admin API, "Faults"): each may hold a body of up to 1 MB. */
export const MAX_FAULTS = 100;

type Schemas = components['schemas'];
export type FaultMatch = Schemas['FaultMatch'];

export interface Fault {
  id: string;
  /** Null: any method (a fault on a tool only). */
  method: Schemas['HttpMethod'] | null;
  /** Null: any path (a fault on a tool only); a trailing `*` matches any suffix. */
  path: string | null;
  /** The MCP tool whose backend calls it matches, by their `X-MCP-Tool` header. */
  tool: string | null;
  /** Query, headers (names in lower case) and body the request must also carry. */
  match?: FaultMatch;
  remaining: number;
  status: number | null;
  body?: unknown;
  latencyMs: number | null;
}

/**
 * Whether `req` is one `fault` applies to, its body aside (that is read only when it comes to that).
 * Paths are compared in lower case, as the router routes them (Express's routing ignores case: a
 * request to `/OPENAPI/V1/courses` is answered by v1).
 */
function matchesHead(fault: Fault, req: Request): boolean {
  if (fault.method !== null && fault.method !== req.method) return false;
  if (fault.path !== null) {
    const path = req.path.toLowerCase();
    const wanted = fault.path.toLowerCase();
    if (!(wanted.endsWith('*') ? path.startsWith(wanted.slice(0, -1)) : path === wanted)) return false;
  }
  if (fault.tool !== null && req.get(MCP_TOOL_HEADER) !== fault.tool) return false;
  const { query, headers } = fault.match ?? {};
  for (const [name, value] of Object.entries(query ?? {})) {
    // The query parser is `simple`: a parameter sent several times is an array of its values.
    const sent = (req.query as Record<string, string | string[] | undefined>)[name];
    if (!(Array.isArray(sent) ? sent.includes(value) : sent === value)) return false;
  }
  for (const [name, value] of Object.entries(headers ?? {})) if (req.get(name) !== value) return false;
  return true;
}

const wantsBody = (fault: Fault) => fault.match?.body !== undefined;

/** A change of the faults in force: plain JSON, so that a shared store can log it (SharedLog.share). */
type FaultChange =
  | { add: Omit<Fault, 'id'> }
  | { remove: string }
  /** `restart`: ids start again at `fault_1` (a reset leaves nothing to the next test). */
  | { clear: true; restart?: true }
  /** One request answered or delayed by the fault. */
  | { spend: string };

/** The injected faults in force, and the middleware that answers or delays a request with one. */
export class FaultInjector {
  readonly inForce: Fault[] = [];
  private faultSeq = 0;
  /** Each body pattern made into a matcher once (body-match.ts), by the fault's id. */
  private readonly bodyMatchers = new Map<string, (body: unknown) => boolean>();
  /** Reads a JSON body for a fault that matches on it, as the contract router would (1 MB, depth 64). */
  private readonly readBody = jsonBody();
  /** Applies a change here; with a shared store, logs it for every replica too (`share`). */
  private change: (change: FaultChange) => unknown = (c) => this.applyChange(c);
  private log: SharedLog | undefined;

  /**
   * Makes the faults one for every replica of a shared store (docs/mock.md, Shared sandbox): each
   * change, a request's spending one included, goes through the log, so a fault with `count: 1`
   * answers once in the whole sandbox.
   */
  share(log: SharedLog): void {
    this.log = log;
    this.change = log.share<FaultChange, unknown>('faults', {
      apply: (c) => this.applyChange(c),
      state: () => ({ faults: this.inForce, seq: this.faultSeq }),
      restore: (state) => {
        const kept = state as { faults: Fault[]; seq: number } | undefined;
        this.inForce.splice(0, this.inForce.length, ...(kept?.faults ?? []));
        this.faultSeq = kept?.seq ?? 0;
      },
    });
  }

  addFault(input: Omit<Fault, 'id' | 'remaining'> & { count: number }): Fault {
    const { count, match, ...rest } = input;
    return this.change({
      add: {
        ...rest,
        // Header names are compared in any case (RFC 9110, 5.1): kept in lower case, as Node gives them.
        ...(match ? { match: { ...match, ...headersInLowerCase(match.headers) } } : {}),
        remaining: count,
      },
    }) as Fault;
  }

  /** Takes one fault out of force; undefined when it has run out or was never there. */
  removeFault(id: string): Fault | undefined {
    return this.change({ remove: id }) as Fault | undefined;
  }

  /** Takes every fault out of force; `restart` (a reset) numbers the next one `fault_1` again. */
  clearFaults(options: { restart?: boolean } = {}): void {
    this.change(options.restart ? { clear: true, restart: true } : { clear: true });
  }

  private bodyMatcher(fault: Fault): (body: unknown) => boolean {
    let match = this.bodyMatchers.get(fault.id);
    if (!match) {
      match = jsonMatcher(fault.match?.body);
      this.bodyMatchers.set(fault.id, match);
    }
    return match;
  }

  private applyChange(change: FaultChange): Fault | undefined {
    if ('add' in change) {
      const fault: Fault = { id: `fault_${++this.faultSeq}`, ...change.add };
      this.inForce.push(fault);
      return fault;
    }
    if ('clear' in change) {
      this.inForce.length = 0;
      this.bodyMatchers.clear();
      if (change.restart) this.faultSeq = 0;
      return undefined;
    }
    const index = this.inForce.findIndex((f) => f.id === ('remove' in change ? change.remove : change.spend));
    const fault = this.inForce[index];
    if (!fault) return undefined;
    if ('remove' in change || --fault.remaining <= 0) {
      this.inForce.splice(index, 1);
      this.bodyMatchers.delete(fault.id);
    }
    return fault;
  }

  /**
   * Answers a request with an injected fault when one matches (the oldest first); the platform never
   * sees such a request. Faults apply to v1, v2 and the tool server's calls only: the admin API is
   * exempt, so faults can always be cleared, and so are `/`, the console and the docs. A fault
   * that matches on the body needs the body read here, before the request's credentials are checked:
   * only when everything else about the request matches it (docs/mock.md, "Driving it from tests").
   */
  injectFaults = (req: Request, res: Response, next: NextFunction) => {
    if (this.inForce.length === 0) return next();
    const api = apiOf(req.path);
    if (api === 'admin' || api === 'other') return next();
    const candidates = this.inForce.filter((f) => matchesHead(f, req));
    if (candidates.length === 0) return next();
    if (!candidates.some(wantsBody)) return this.apply(candidates[0] as Fault, req, res, next);
    this.readBody(req, res, (error?: unknown) => {
      if (error) return next(error);
      // Faults may have run out or been removed while the body arrived.
      const fault = candidates.find(
        (f) => this.inForce.includes(f) && (!wantsBody(f) || this.bodyMatcher(f)(req.body)),
      );
      if (!fault) return next();
      this.apply(fault, req, res, next);
    });
  };

  /**
   * Counts the request against `fault` and answers it, or delays it, as the fault says. With a shared
   * store the count is spent in the log's order: when another replica spent the fault's last request
   * first, the request is looked at again against the faults still in force.
   */
  private apply(fault: Fault, req: Request, res: Response, next: NextFunction): void {
    const { log } = this;
    if (!log) {
      this.change({ spend: fault.id });
      this.answer(fault, res, next);
      return;
    }
    log
      .exclusive(() =>
        this.inForce.some((f) => f.id === fault.id) ? this.change({ spend: fault.id }) : null,
      )
      .then((spent) => (spent ? this.answer(fault, res, next) : this.injectFaults(req, res, next)), next);
  }

  private answer(fault: Fault, res: Response, next: NextFunction): void {
    // For the request journal (journal/): which fault answered or delayed this request.
    contextOf(res).faultId = fault.id;
    const answer = () => {
      if (fault.status === null) return next();
      if (fault.body === undefined) res.status(fault.status).end();
      else res.status(fault.status).json(fault.body);
    };
    if (fault.latencyMs) setTimeout(answer, fault.latencyMs);
    else answer();
  }
}

function headersInLowerCase(headers: Record<string, string> | undefined): {
  headers?: Record<string, string>;
} {
  if (!headers) return {};
  return { headers: Object.fromEntries(Object.entries(headers).map(([n, v]) => [n.toLowerCase(), v])) };
}
