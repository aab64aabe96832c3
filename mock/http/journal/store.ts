// Where the request journal keeps its requests, with the ids that name them, clearing, and the filters
// a query selects them by (openapi/admin, getRequestJournal). `JournalStore` is what the journal asks
// of a place to keep them; `JournalRing` keeps the last `size` in this process's memory, outside the
// platform state (it describes this run only). A shared store keeps them in PostgreSQL for every
// replica of a shared sandbox (mock/store/postgres-journal.ts; docs/mock.md, Shared sandbox).
import { jsonMatcher } from '../body-match.ts';
import { type JournalApi, type JournalMessage, MAX_JOURNAL_SIZE, type Stored } from './entry.ts';

export interface JournalFilter {
  api?: JournalApi;
  method?: string;
  status?: number;
  minStatus?: number;
  maxStatus?: number;
  path?: string;
  operationId?: string;
  caller?: string;
  tool?: string;
  /** A JSON value the request's JSON body must match (body-match.ts), as the journal shows the body. */
  body?: unknown;
}

/** The id of the request kept with `seq`, as the admin API names it. */
export const idOf = (seq: number) => `req_${seq}`;
/** The `seq` an id names (NaN, which names none, for an id of another form). */
export const seqOf = (id: string) => Number(id.slice('req_'.length));

/**
 * A value now (the ring, in memory: the embedded mock stays synchronous, costing no promise per
 * read) or later (a shared store, in PostgreSQL).
 */
export type MaybePromise<T> = T | Promise<T>;

/** `then` of a value that may be a promise: synchronous for a value. */
export const thenOf = <T, U>(value: MaybePromise<T>, next: (value: T) => U): MaybePromise<U> =>
  value instanceof Promise ? value.then(next) : next(value);

/** What a read of the journal gives: the requests selected, and how many the journal holds. */
export interface Selection {
  stored: Stored[];
  held: number;
}

/** `requestShown` shows a request as the journal does, for the `body` filter (selectFrom). */
export type RequestShown = (s: Stored) => JournalMessage;

/** Where the journal keeps requests: the ring in memory, or a shared store. */
export interface JournalStore {
  /** The requests it holds at most (`--journal-size`). */
  readonly size: number;
  /**
   * Whether other processes read it (a shared store): the journal then hands it each request shown
   * (secrets masked) and judged, and holds the request's answer until `add`'s promise settles, so a
   * client that has its answer finds the request through any replica.
   */
  readonly shared: boolean;
  /** Keeps `s`, the newest request, in place of the oldest once full; gives it its `seq`. */
  add(s: Stored): void | Promise<void>;
  /** Newest first, those that pass the filter, at most `limit`; and how many it holds. */
  select(filter: JournalFilter, limit: number, requestShown: RequestShown): MaybePromise<Selection>;
  /** The request an id names, if it is still held. */
  find(id: string): MaybePromise<Stored | undefined>;
  /** Forgets every request held; answers how many. Ids go on counting. */
  clear(): MaybePromise<number>;
}

/** The journal's bound, checked where a journal is made (`--journal-size` and startMock check it first). */
export function checkJournalSize(size: number): void {
  if (!Number.isInteger(size) || size < 1 || size > MAX_JOURNAL_SIZE)
    throw new Error(`the journal size is a whole number from 1 to ${MAX_JOURNAL_SIZE}, not ${size}`);
}

export class JournalRing implements JournalStore {
  readonly shared = false;
  private readonly ring: (Stored | undefined)[];
  private next = 0;
  private seq = 0;
  /** Requests held now: `size` once the ring has gone round, fewer after a start or `clear`. */
  private count = 0;

  /** `size`: the requests it holds at most (`--journal-size`, DEFAULT_JOURNAL_SIZE), 1 to MAX_JOURNAL_SIZE. */
  constructor(readonly size: number) {
    checkJournalSize(size);
    this.ring = new Array(this.size);
  }

  /** Keeps `s`, the newest request, in place of the oldest once the ring is full; gives it its `seq`. */
  add(s: Stored): void {
    s.seq = ++this.seq;
    this.ring[this.next] = s;
    this.next = (this.next + 1) % this.size;
    this.count = Math.min(this.count + 1, this.size);
  }

  /**
   * Forgets every request held; answers how many. The ids go on counting, so an id read before
   * never names a later request.
   */
  clear(): number {
    const cleared = this.count;
    this.ring.fill(undefined);
    this.next = 0;
    this.count = 0;
    return cleared;
  }

  /** The request an id names, if the ring still holds it. */
  find(id: string): Stored | undefined {
    const seq = seqOf(id);
    return this.newestFirst().find((s) => s.seq === seq);
  }

  select(filter: JournalFilter, limit: number, requestShown: RequestShown): Selection {
    return { stored: selectFrom(this.newestFirst(), filter, limit, requestShown), held: this.count };
  }

  private newestFirst(): Stored[] {
    const out: Stored[] = [];
    for (let i = 1; i <= this.size; i++) {
      const s = this.ring[(this.next - i + this.size) % this.size];
      if (s) out.push(s);
    }
    return out;
  }
}

/**
 * Of `newestFirst`, those that pass the filter, at most `limit`: the one rule of the filters, for the
 * ring and a shared store alike. `requestShown` shows a request as the journal does, for the `body`
 * filter: it matches the body as shown (secret fields masked).
 */
export function selectFrom(
  newestFirst: Iterable<Stored>,
  filter: JournalFilter,
  limit: number,
  requestShown: RequestShown,
): Stored[] {
  const out: Stored[] = [];
  // The pattern is made into a matcher once for the whole walk, not once per request walked past.
  const matchBody = filter.body === undefined ? undefined : jsonMatcher(filter.body);
  for (const s of newestFirst) {
    if (out.length >= limit) break;
    if (filter.api && s.api !== filter.api) continue;
    if (filter.method && s.method !== filter.method) continue;
    if (filter.status !== undefined && s.status !== filter.status) continue;
    if (filter.minStatus !== undefined && s.status < filter.minStatus) continue;
    if (filter.maxStatus !== undefined && s.status > filter.maxStatus) continue;
    if (filter.path && !s.path.includes(filter.path)) continue;
    if (filter.operationId && s.operationId !== filter.operationId) continue;
    if (
      filter.caller &&
      !(s.caller && [s.caller.tenantId, s.caller.keyId, s.caller.userId].includes(filter.caller))
    )
      continue;
    if (filter.tool && s.tool !== filter.tool) continue;
    if (matchBody && !bodyMatches(s, matchBody, requestShown)) continue;
    out.push(s);
  }
  return out;
}

/**
 * Whether the JSON body of `s`, as the journal shows it (secret fields masked), matches the pattern.
 * A body that was cut, or is not JSON (an upload, a form, text), never matches.
 */
function bodyMatches(s: Stored, match: (body: unknown) => boolean, requestShown: RequestShown): boolean {
  if (!s.jsonBody) return false;
  const { body, bodyNote } = requestShown(s);
  return bodyNote === null && match(body);
}
