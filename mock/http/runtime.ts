// What the mock keeps about its own traffic, outside the platform state: the request journal and the
// injected faults (admin API, "Journal" and "Faults"). Neither is durable: they describe this run.
import type { NextFunction, Request, Response } from 'express';

export interface JournalRecord {
  at: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  api: 'v1' | 'v2' | 'admin' | 'other';
}

export const JOURNAL_SIZE = 1000;

export interface Fault {
  id: string;
  method: string;
  path: string;
  remaining: number;
  status: number | null;
  body?: unknown;
  latencyMs: number | null;
}

const apiOf = (path: string): JournalRecord['api'] =>
  path.startsWith('/openapi/v1')
    ? 'v1'
    : path.startsWith('/api/v2')
      ? 'v2'
      : path.startsWith('/__admin')
        ? 'admin'
        : 'other';

export class Runtime {
  private readonly journal: JournalRecord[] = [];
  readonly faults: Fault[] = [];
  private faultSeq = 0;

  /** Records every request's outcome once its answer is sent. */
  recordRequests = (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    // Read now: routers mounted below rewrite `req.url` while they handle the request.
    const { method, path } = req;
    res.on('finish', () => {
      const latencyMs = Number(process.hrtime.bigint() - started) / 1e6;
      this.journal.push({
        at: new Date().toISOString(),
        method,
        path,
        status: res.statusCode,
        latencyMs: Math.round(latencyMs * 1000) / 1000,
        api: apiOf(path),
      });
      if (this.journal.length > JOURNAL_SIZE) this.journal.shift();
    });
    next();
  };

  recentRequests(limit: number): JournalRecord[] {
    return this.journal.slice(-limit).reverse();
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
