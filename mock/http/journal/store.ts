// Where the request journal keeps its requests: a ring of the last `size`, outside the platform state
// (it describes this run only), with the ids that name them, clearing, and the filters a query selects
// them by (openapi/admin, getRequestJournal).
import { matchesJson } from '../body-match.ts';
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
const seqOf = (id: string) => Number(id.slice('req_'.length));

export class JournalRing {
  private readonly ring: (Stored | undefined)[];
  private next = 0;
  private seq = 0;
  /** Requests held now: `size` once the ring has gone round, fewer after a start or `clear`. */
  private count = 0;

  /** `size`: the requests it holds at most (`--journal-size`, DEFAULT_JOURNAL_SIZE), 1 to MAX_JOURNAL_SIZE. */
  constructor(readonly size: number) {
    if (!Number.isInteger(this.size) || this.size < 1 || this.size > MAX_JOURNAL_SIZE)
      throw new Error(`the journal size is a whole number from 1 to ${MAX_JOURNAL_SIZE}, not ${this.size}`);
    this.ring = new Array(this.size);
  }

  /** Keeps `s`, the newest request, in place of the oldest once the ring is full; gives it its `seq`. */
  add(s: Stored): void {
    s.seq = ++this.seq;
    this.ring[this.next] = s;
    this.next = (this.next + 1) % this.size;
    this.count = Math.min(this.count + 1, this.size);
  }

  /** How many requests the ring holds now. */
  get held(): number {
    return this.count;
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

  /**
   * Newest first, those that pass the filter, at most `limit`. `requestShown` shows a request as the
   * journal does, for the `body` filter: it matches the body as shown (secret fields masked).
   */
  select(filter: JournalFilter, limit: number, requestShown: (s: Stored) => JournalMessage): Stored[] {
    const out: Stored[] = [];
    for (const s of this.newestFirst()) {
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
      if (filter.body !== undefined && !bodyMatches(s, filter.body, requestShown)) continue;
      out.push(s);
    }
    return out;
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
 * Whether the JSON body of `s`, as the journal shows it (secret fields masked), matches `pattern`.
 * A body that was cut, or is not JSON (an upload, a form, text), never matches.
 */
function bodyMatches(s: Stored, pattern: unknown, requestShown: (s: Stored) => JournalMessage): boolean {
  if (!('json' in s.sent.requestBody)) return false;
  const { body, bodyNote } = requestShown(s);
  return bodyNote === null && matchesJson(body, pattern);
}
