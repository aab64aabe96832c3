// The request journal (admin API, "Journal"): what each client sent and what the mock answered, for
// a person asking "what did my client send?". This class puts the parts together: it records each
// request (capture.ts), keeps the last `size` in a ring (store.ts) or a shared store (a JournalStore of
// mock/store/postgres-journal.ts), and answers the admin API's reads — a list by filters, one request
// in full, HAR (har.ts) — with each request shown (view.ts) and judged against the contract
// (verdict.ts, contracts.ts) on its first read; for a shared store, before it is kept.
//
// The reads answer a value from the ring and a promise from a shared store: the embedded mock's
// journal stays synchronous, as fast as before there was a shared one.
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
import {
  type JournalFilter,
  JournalRing,
  type JournalStore,
  type MaybePromise,
  type Selection,
  thenOf,
} from './store.ts';
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
  /**
   * Where to keep the requests, for `size`: a shared store's journal (docs/mock.md, Shared sandbox);
   * without it, a ring in this process's memory.
   */
  store?: (size: number) => JournalStore;
}

/** A read of the journal as the admin API lists it. */
export interface JournalPage {
  requests: JournalEntry[];
  held: number;
}

export class RequestJournal implements RecordingSink {
  readonly size: number;
  readonly holdsAnswers: boolean;
  private readonly store: JournalStore;
  private readonly contracts: JournalContracts;
  /** Made once, not per request: `keep` runs on every request. */
  private readonly lookups: StoredLookups;

  constructor(private readonly options: JournalOptions) {
    const size = options.size ?? DEFAULT_JOURNAL_SIZE;
    this.store = options.store ? options.store(size) : new JournalRing(size);
    this.size = this.store.size;
    this.holdsAnswers = this.store.shared;
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

  /**
   * Called once per request by the answer's `end`: after the answer went out, or, for a shared store,
   * before, and the answer waits for the promise (capture.ts). A shared store is handed the request
   * shown and judged: it keeps it so, never as sent (entry.ts, `keptText`).
   */
  keep(r: Recording, res: Response): void | Promise<void> {
    const stored = storedOf(r, res, this.lookups);
    if (this.store.shared) {
      // Both, now: a verdict that needs no answer (a fault's, an unrouted request's) shows nothing.
      this.shownOf(stored);
      this.entryOf(stored);
    }
    return this.store.add(stored);
  }

  /**
   * Forgets every request held; answers how many. The ids go on counting, so an id read before
   * never names a later request.
   */
  clear(): MaybePromise<number> {
    return this.store.clear();
  }

  /** Newest first, those that pass the filter, at most `limit`; with `full`, each with its request and answer. */
  list(filter: JournalFilter, limit: number, full = false): MaybePromise<JournalEntry[]> {
    return thenOf(this.read(filter, limit, full), (page) => page.requests);
  }

  /** `list`, with how many requests the journal holds (`GET /__admin/journal`). */
  read(filter: JournalFilter, limit: number, full = false): MaybePromise<JournalPage> {
    return thenOf(this.select(filter, limit), ({ stored, held }) => ({
      held,
      requests: stored.map((s) => {
        const entry = this.entryOf(s);
        if (!full) return entry;
        const shown = this.shownOf(s);
        return { ...entry, request: shown.request, response: answerOf(shown) };
      }),
    }));
  }

  detail(
    id: string,
  ): MaybePromise<{ entry: JournalEntry; request: JournalMessage; response: JournalMessage } | undefined> {
    return thenOf(this.store.find(id), (stored) => {
      if (!stored) return undefined;
      const shown = this.shownOf(stored);
      return { entry: this.entryOf(stored), request: shown.request, response: answerOf(shown) };
    });
  }

  /** HAR 1.2, oldest first; `origin` makes URLs absolute. */
  har(filter: JournalFilter, limit: number, origin: string): MaybePromise<ReturnType<typeof harOf>> {
    return thenOf(this.select(filter, limit), ({ stored }) =>
      harOf(
        stored.reverse().map((s) => ({ stored: s, entry: this.entryOf(s), shown: this.shownOf(s) })),
        this.options.version,
        origin,
      ),
    );
  }

  private select(filter: JournalFilter, limit: number): MaybePromise<Selection> {
    return this.store.select(filter, limit, (s) => this.shownOf(s).request);
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
