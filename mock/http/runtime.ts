// What the mock keeps about its own traffic, outside the platform state: the request journal and the
// injected faults (admin API, "Journal" and "Faults"). Neither is durable: they describe this run.

import type { NextFunction, Request, Response } from 'express';
import type { components } from '../../generated/admin.ts';

export interface JournalRecord {
  at: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  api: 'v1' | 'v2' | 'admin' | 'other';
}

export const JOURNAL_SIZE = 1000;
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
export const apiOf = (path: string): JournalRecord['api'] =>
  path.startsWith('/openapi/v1')
    ? 'v1'
    : path.startsWith('/api/v2')
      ? 'v2'
      : path.startsWith('/__admin')
        ? 'admin'
        : 'other';

export class Runtime {
  /** A ring of the last JOURNAL_SIZE requests; the time is kept as a number and formatted when read. */
  private readonly journal: (Omit<JournalRecord, 'at'> & { atMs: number })[] = [];
  private journalNext = 0;
  readonly faults: Fault[] = [];
  private faultSeq = 0;

  /** Records every request's outcome once its answer is sent. */
  recordRequests = (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    // Read now: routers mounted below rewrite `req.url` while they handle the request.
    const { method, path } = req;
    res.on('finish', () => {
      const latencyMs = performance.now() - started;
      this.journal[this.journalNext] = {
        atMs: Date.now(),
        method,
        path,
        status: res.statusCode,
        latencyMs,
        api: apiOf(path),
      };
      this.journalNext = (this.journalNext + 1) % JOURNAL_SIZE;
    });
    next();
  };

  /** Newest first. */
  recentRequests(limit: number): JournalRecord[] {
    const inOrder = [...this.journal.slice(this.journalNext), ...this.journal.slice(0, this.journalNext)];
    return inOrder
      .slice(-limit)
      .reverse()
      .map(({ atMs, latencyMs, ...r }) => ({
        at: new Date(atMs).toISOString(),
        ...r,
        latencyMs: Math.round(latencyMs * 1000) / 1000,
      }));
  }

  addFault(input: Omit<Fault, 'id' | 'remaining'> & { count: number }): Fault {
    const { count, ...rest } = input;
    const fault = { id: `fault_${++this.faultSeq}`, ...rest, remaining: count };
    this.faults.push(fault);
    return fault;
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  /**
   * Answers a request with an injected fault when one matches (the oldest first); the platform never
   * sees such a request. The admin API itself is exempt, so faults can always be cleared.
   */
  injectFaults = (req: Request, res: Response, next: NextFunction) => {
    if (req.path.startsWith('/__admin')) return next();
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
