// The request journal of a shared sandbox (docs/mock.md, Shared sandbox; docs/adr-0007-shared-sandbox.md):
// the requests every replica answered, kept in the store's PostgreSQL, so that `GET /__admin/journal`
// through any replica lists them all, newest first, within the journal's size.
//
// Bounded by construction: the table has one row per slot, and a request's slot is its seq modulo the
// size, written over in place (postgres-schema.ts); it never holds more rows than the journal holds
// requests, whatever clients send. The seqs come from one PostgreSQL sequence, so ids are unique across
// replicas and go on counting after a clear, as in one process.
//
// Visibility: a replica answers a request only once its row is committed (the answer's `end` waits,
// journal/capture.ts), so a client that has its answer finds the request through any replica. Rows of
// the requests answered while an insert is under way wait and go in together, in one statement: the
// cost per request under load is a share of one round trip, not a round trip each.
//
// The journal is diagnostics, never a reason to fail an answer: when the store cannot be reached, the
// answer goes out anyway — after the failed insert, or at most HOLD_LIMIT_MS —, and until an insert
// succeeds again answers do not wait for theirs at all; the requests answered meanwhile may be missing
// from the journal. What the store keeps is each request as shown, secrets masked (entry.ts, `keptText`).
//
// Reads take the newest `size` rows and filter them with the ring's own code (journal/store.ts,
// `selectFrom`): one rule for every filter. A replica keeps the requests it read, by seq, and asks the
// store only for the rows it does not hold yet, so a console polling the journal costs one small
// query a second, not the whole journal.
import type pg from 'pg';
import { CommandLogError } from '../domain/platform.ts';
import { keptText, type Stored, storedFromKept } from '../http/journal/entry.ts';
import {
  checkJournalSize,
  type JournalFilter,
  type JournalStore,
  type RequestShown,
  type Selection,
  selectFrom,
  seqOf,
} from '../http/journal/store.ts';

/** The longest an answer waits for its journal row when the store is slow: then it goes out anyway. */
export const HOLD_LIMIT_MS = 5_000;
/** Seconds a client is told to wait when a read cannot reach the store. */
const RETRY_AFTER = 2;

/** The rows of the answers gathered while an insert was under way, and their answers' wait. */
interface Batch {
  texts: string[];
  done: Promise<void>;
  settle: () => void;
}

export class PostgresJournal implements JournalStore {
  readonly shared = true;
  /** The requests read last, by seq: a read asks the store only for rows not among them. Replaced, never changed. */
  private known = new Map<number, Stored>();
  private gathering: Batch | null = null;
  private inserting = false;
  /** The last insert failed: answers do not wait for theirs until one succeeds. */
  private unreachable = false;
  private closed = false;

  /**
   * `pool`: the shared store's (postgres-store.ts), whose open made the table. `name`: the store's URL
   * without its password, for what is said of a failure.
   */
  constructor(
    private readonly pool: pg.Pool,
    readonly size: number,
    private readonly name: string,
  ) {
    checkJournalSize(size);
  }

  add(s: Stored): Promise<void> | undefined {
    if (this.closed) return undefined;
    const text = keptText(s);
    let batch = this.gathering;
    if (!batch) {
      let settle = () => {};
      const done = new Promise<void>((resolve) => {
        settle = resolve;
      });
      batch = { texts: [], done, settle };
      // One timer a batch, not a request: no answer waits longer than the limit for a slow store.
      const limit = setTimeout(settle, HOLD_LIMIT_MS);
      limit.unref();
      done.then(() => clearTimeout(limit));
      this.gathering = batch;
    }
    batch.texts.push(text);
    // Of more rows than the journal holds only the newest can stay: a batch gathered while a slow
    // insert is under way never holds many more (trimmed now and then, not on every row).
    if (batch.texts.length >= 2 * this.size) batch.texts.splice(0, batch.texts.length - this.size);
    if (!this.inserting) void this.insertGathered();
    return this.unreachable ? undefined : batch.done;
  }

  async select(filter: JournalFilter, limit: number, requestShown: RequestShown): Promise<Selection> {
    const newest = await this.newest();
    return { stored: selectFrom(newest, filter, limit, requestShown), held: newest.length };
  }

  async find(id: string): Promise<Stored | undefined> {
    const seq = seqOf(id);
    if (!Number.isSafeInteger(seq) || seq < 1) return undefined;
    const known = this.known.get(seq);
    const { rows } = await this.query<{ entry: string | null }>(
      'lmskit_journal_find',
      'SELECT CASE WHEN $2 THEN NULL ELSE entry END AS entry FROM lmskit_journal WHERE seq = $1',
      [seq, known !== undefined],
    );
    const row = rows[0];
    if (!row) return undefined;
    return row.entry === null ? known : storedFromKept(seq, row.entry);
  }

  async clear(): Promise<number> {
    const { rowCount } = await this.query('lmskit_journal_clear', 'DELETE FROM lmskit_journal');
    this.known = new Map();
    return rowCount ?? 0;
  }

  /** No more inserts: the store is closing its pool. */
  close(): void {
    this.closed = true;
  }

  /** The newest `size` requests, newest first: the rows this replica read before come from memory. */
  private async newest(): Promise<Stored[]> {
    // Replaced, never changed, by reads: a read that ends while this one is under way cannot take a
    // request from under it.
    const known = this.known;
    const { rows } = await this.query<{ seq: string; entry: string | null }>(
      'lmskit_journal_newest',
      `SELECT j.seq, CASE WHEN k.seq IS NULL THEN j.entry END AS entry
         FROM lmskit_journal j LEFT JOIN unnest($2::bigint[]) AS k(seq) ON k.seq = j.seq
        ORDER BY j.seq DESC LIMIT $1`,
      [this.size, [...known.keys()]],
    );
    const read = new Map<number, Stored>();
    const newest: Stored[] = [];
    for (const row of rows) {
      const seq = Number(row.seq);
      const s = row.entry === null ? known.get(seq) : storedFromKept(seq, row.entry);
      if (!s) continue;
      read.set(seq, s);
      newest.push(s);
    }
    this.known = read;
    return newest;
  }

  /** Inserts the rows gathered, one statement at a time, until none wait. */
  private async insertGathered(): Promise<void> {
    this.inserting = true;
    while (this.gathering) {
      const batch = this.gathering;
      this.gathering = null;
      try {
        await this.insert(batch.texts);
        this.unreachable = false;
      } catch (error) {
        if (!this.unreachable && !this.closed)
          console.warn(
            `lmskit mock: the request journal cannot reach the shared store ${this.name} (${codeOf(error)}); requests are answered, and left out of the journal until it is back`,
          );
        this.unreachable = true;
      }
      batch.settle();
    }
    this.inserting = false;
  }

  /**
   * One statement: a seq for each row in the order answered, its slot the seq modulo the size, and a
   * slot's row replaced only by a newer one. Of more rows than slots only the newest can stay; and
   * within one statement a slot is written once (DISTINCT ON), since PostgreSQL refuses a row updated
   * twice by one INSERT … ON CONFLICT.
   */
  private async insert(texts: string[]): Promise<void> {
    // Prepared once per connection (a named statement): planning it was a good part of its time.
    await this.pool.query({
      name: 'lmskit_journal_insert',
      text: `INSERT INTO lmskit_journal (slot, seq, entry)
       SELECT DISTINCT ON (seq % $2) seq % $2, seq, entry
         FROM (SELECT nextval('lmskit_journal_seq') AS seq, entry
                 FROM unnest($1::text[]) WITH ORDINALITY AS answered(entry, n) ORDER BY n) numbered
        ORDER BY seq % $2, seq DESC
       ON CONFLICT (slot) DO UPDATE SET seq = excluded.seq, entry = excluded.entry
        WHERE lmskit_journal.seq < excluded.seq`,
      values: [texts.length > this.size ? texts.slice(-this.size) : texts, this.size],
    });
  }

  /**
   * A query of a read or a clear, prepared once per connection under `name`; a store out of reach is
   * a 503 in the API's shape, naming it without its password.
   */
  private async query<R extends pg.QueryResultRow>(
    name: string,
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>({ name, text, values });
    } catch (error) {
      throw new CommandLogError(
        `The shared store ${this.name} cannot be reached (${codeOf(error)}); the request journal cannot be read now, retry shortly.`,
        RETRY_AFTER,
      );
    }
  }
}

/** What a failure may say of itself: a code, never its message (which could name the connection). */
const codeOf = (error: unknown) => (error as { code?: string }).code ?? 'no answer';
