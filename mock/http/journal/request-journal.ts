// The request journal (admin API, "Journal"): what each client sent and what the mock answered, for
// a person asking "what did my client send?". This class puts the parts together: it records each
// request (capture.ts), keeps the last `size` in a ring (store.ts), and answers the admin API's reads —
// a list by filters, one request in full, HAR (har.ts) — with each request shown (view.ts) and judged
// against the contract (verdict.ts, contracts.ts) on its first read.
import type { NextFunction, Request, Response } from 'express';
import type { Specs } from '../../specs.ts';
import { callerOf } from './caller.ts';
import {
  forgetRecording,
  type Recording,
  type RecordingSink,
  type StoredLookups,
  startRecording,
  storedOf,
} from './capture.ts';
import { JournalContracts } from './contracts.ts';
import {
  DEFAULT_JOURNAL_SIZE,
  type JournalCaller,
  type JournalEntry,
  type JournalMessage,
  type Shown,
  type Stored,
} from './entry.ts';
import { harOf } from './har.ts';
import { type JournalFilter, JournalRing } from './store.ts';
import { verdictOf } from './verdict.ts';
import { answerOf, entryOf, shownOf } from './view.ts';

export interface JournalOptions {
  size?: number;
  specs: Specs;
  /** The virtual clock, Unix seconds. */
  now: () => number;
  /** Who a request's credentials name (callerOfCredentials over the platform); none without it. */
  identify?: (req: Request) => JournalCaller | null;
  version: string;
}

export class RequestJournal implements RecordingSink {
  readonly size: number;
  private readonly ring: JournalRing;
  private readonly contracts: JournalContracts;
  /** Made once, not per request: `keep` runs on every request. */
  private readonly lookups: StoredLookups;

  constructor(private readonly options: JournalOptions) {
    this.ring = new JournalRing(options.size ?? DEFAULT_JOURNAL_SIZE);
    this.size = this.ring.size;
    const contracts = new JournalContracts(options.specs);
    this.contracts = contracts;
    this.lookups = {
      operationAt: (method, path) => contracts.operationAt(method, path),
      callerOf: (req, res) => callerOf(req, res, options),
    };
  }

  /** Express middleware, first in the chain: keeps each request and its answer once the answer is sent. */
  record = (req: Request, res: Response, next: NextFunction) => {
    startRecording(this, req, res, this.options);
    next();
  };

  /** Leaves the request `res` answers out of the journal (a reset that clears it, admin/router.ts). */
  forget(res: Response): void {
    forgetRecording(res);
  }

  /** Called once per request, by the answer's `end`, after the answer went out. */
  keep(r: Recording, res: Response): void {
    this.ring.add(storedOf(r, res, this.lookups));
  }

  /** How many requests the journal holds now. */
  get held(): number {
    return this.ring.held;
  }

  /**
   * Forgets every request held; answers how many. The ids go on counting, so an id read before
   * never names a later request.
   */
  clear(): number {
    return this.ring.clear();
  }

  /** Newest first, those that pass the filter, at most `limit`; with `full`, each with its request and answer. */
  list(filter: JournalFilter, limit: number, full = false): JournalEntry[] {
    return this.select(filter, limit).map((s) => {
      const entry = this.entryOf(s);
      if (!full) return entry;
      const shown = this.shownOf(s);
      return { ...entry, request: shown.request, response: answerOf(shown) };
    });
  }

  detail(id: string): { entry: JournalEntry; request: JournalMessage; response: JournalMessage } | undefined {
    const stored = this.ring.find(id);
    if (!stored) return undefined;
    const shown = this.shownOf(stored);
    return { entry: this.entryOf(stored), request: shown.request, response: answerOf(shown) };
  }

  /** HAR 1.2, oldest first; `origin` makes URLs absolute. */
  har(filter: JournalFilter, limit: number, origin: string) {
    const items = this.select(filter, limit)
      .reverse()
      .map((stored) => {
        const entry = this.entryOf(stored);
        return { stored, entry, shown: this.shownOf(stored) };
      });
    return harOf(items, this.options.version, origin);
  }

  private select(filter: JournalFilter, limit: number): Stored[] {
    return this.ring.select(filter, limit, (s) => this.shownOf(s).request);
  }

  private shownOf(s: Stored): Shown {
    return shownOf(s, (status) => this.contracts.secretsOf(s.api, s.operationId, status));
  }

  private entryOf(s: Stored): JournalEntry {
    return entryOf(
      s,
      verdictOf(s, this.contracts, () => this.shownOf(s).response),
    );
  }
}
