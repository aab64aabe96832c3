// The injected faults (admin API, "Faults"), outside the platform state: they describe this run only.
// The request journal is journal.ts.
import type { NextFunction, Request, Response } from 'express';
import type { components } from '../../generated/admin.ts';

/** Faults in force at a time (admin API, "Faults"): each may hold a body of up to 1 MB. */
export const MAX_FAULTS = 100;

export interface Fault {
  id: string;
  method: components['schemas']['HttpMethod'];
  path: string;
  remaining: number;
  status: number | null;
  body?: unknown;
  latencyMs: number | null;
}

/** Which API a request path belongs to. */
export const apiOf = (path: string): 'v1' | 'v2' | 'admin' | 'other' =>
  path.startsWith('/openapi/v1')
    ? 'v1'
    : path.startsWith('/api/v2')
      ? 'v2'
      : path.startsWith('/__admin')
        ? 'admin'
        : 'other';

export class Runtime {
  readonly faults: Fault[] = [];
  private faultSeq = 0;

  addFault(input: Omit<Fault, 'id' | 'remaining'> & { count: number }): Fault {
    const { count, ...rest } = input;
    const fault = { id: `fault_${++this.faultSeq}`, ...rest, remaining: count };
    this.faults.push(fault);
    return fault;
  }

  /** Takes one fault out of force; undefined when it has run out or was never there. */
  removeFault(id: string): Fault | undefined {
    const index = this.faults.findIndex((f) => f.id === id);
    return index < 0 ? undefined : this.faults.splice(index, 1)[0];
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  /**
   * Answers a request with an injected fault when one matches (the oldest first); the platform never
   * sees such a request. The admin API itself is exempt, so faults can always be cleared.
   */
  injectFaults = (req: Request, res: Response, next: NextFunction) => {
    if (this.faults.length === 0 || req.path.startsWith('/__admin')) return next();
    const fault = this.faults.find(
      (f) =>
        f.method === req.method &&
        (f.path.endsWith('*') ? req.path.startsWith(f.path.slice(0, -1)) : req.path === f.path),
    );
    if (!fault) return next();
    if (--fault.remaining <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
    const answer = () => {
      if (fault.status === null) return next();
      if (fault.body === undefined) res.status(fault.status).end();
      else res.status(fault.status).json(fault.body);
    };
    if (fault.latencyMs) setTimeout(answer, fault.latencyMs);
    else answer();
  };
}
