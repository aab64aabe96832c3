// A shared store (docs/mock.md, Shared sandbox; docs/adr-0007-shared-sandbox.md): the platform's
// command log kept in PostgreSQL, so that any number of mock processes (replicas) serve one platform.
//
// The log is the truth and each replica's memory a cache of it. One sequence orders every replica's
// commands: a replica writes only while it holds the write lock (a PostgreSQL advisory lock, taken in
// the write's transaction), first applies what the others committed, then runs the request's
// commands in memory, and commits their entries before the request is answered: a 2xx means
// committed. A command the domain refuses is taken back before the commit, so two replicas racing on
// one rule (one e-mail, the last seat of a quota) give one winner and the documented refusal, as one
// process does. When the commit fails, memory holds commands the store does not: the replica answers
// 503 and rebuilds itself from the store before it serves again.
//
// A read first takes in every command committed before it arrived (linearizable reads): one query of
// the commands after the replica's last, shared by the requests that arrive while it is under way.
// Requests that arrive while a query is in flight wait for the next one, since the one in flight may
// have asked before they were sent.
//
// Each entry carries the clock after its command (`c`), which every replica takes, so the virtual
// clock is one. Besides the platform's commands the log holds the changes of shared sides
// (SharedLog.share: the injected faults), state outside the platform that every replica keeps alike.
// A replica starts from the newest snapshot in the store (the platform, the clock, the sides) and the
// entries after it; one is written every SNAPSHOT_EVERY entries by the replica that commits the last
// of them. Replicas LISTEN for each other's commits, to stay near the log's head.
//
// Beside the log, the store keeps what changes with every request and so is no command: the
// pipeline's counters (postgres-limits.ts), the claims on webhook attempts (postgres-claims.ts) and
// the request journal (postgres-journal.ts).

import pg from 'pg';
import type { ClockState } from '../domain/clock.ts';
import {
  type CommandLog,
  type CommandLogEntry,
  CommandLogError,
  type Platform,
  type SharedLog,
  type SharedSide,
  type Snapshot,
  UnknownCommand,
} from '../domain/platform.ts';
import type { LimitCounters } from '../http/v2/pipeline/counters.ts';
import type { DeliveryClaims } from '../webhooks/dispatcher.ts';
import { postgresDeliveryClaims } from './postgres-claims.ts';
import { PostgresJournal } from './postgres-journal.ts';
import { postgresLimitCounters, type Query } from './postgres-limits.ts';
import { CHANNEL, LOCKS, prepareSchema } from './postgres-schema.ts';
import { maskedStoreUrl } from './store-url.ts';

export { StoreFromNewerVersion } from './postgres-schema.ts';

/** A snapshot of the platform at a position of the log, with its clock and the shared sides' states. */
interface StoredState {
  snapshot: Snapshot;
  clock: ClockState;
  sides?: Record<string, unknown>;
}

/** An entry of the log that changes a shared side (SharedLog.share), not the platform. */
interface SideEntry {
  s: string;
  a: unknown;
}
type StoredEntry = CommandLogEntry | SideEntry;
/** A row of the command log as the driver gives it (a bigint as text). */
interface CommandRow {
  seq: string;
  entry: string;
}
const isSide = (entry: StoredEntry): entry is SideEntry => 's' in entry;

/** Commands between two snapshots in the store: a joining replica replays at most this many. */
export const SNAPSHOT_EVERY = 1_000;
/** Commands read in one query while catching up. */
const PAGE = 2_000;
/** Seconds a client is told to wait when the store cannot be reached. */
const RETRY_AFTER = 2;

/** What the store reached from the outside may say of itself, without the URL's secrets. */
function unavailable(store: string, error: unknown): CommandLogError {
  if (error instanceof CommandLogError) return error;
  // A replica of a newer lmskit wrote it (docs/mock.md, Shared sandbox: upgrading replicas one by one).
  if (error instanceof UnknownCommand)
    return new CommandLogError(
      `This replica cannot apply the shared store's newest commands: ${error.message}. Upgrade this replica to that lmskit.`,
      RETRY_AFTER,
    );
  const reason = (error as { code?: string; message?: string }).code ?? 'no answer';
  return new CommandLogError(
    `The shared store ${store} cannot be reached (${reason}); nothing was changed, retry shortly.`,
    RETRY_AFTER,
  );
}

export interface StoreOpenReport {
  /** Whether this replica made the platform's first state in the store, or joined one there. */
  started: 'new' | 'joined';
  /** Commands replayed after the snapshot this replica started from. */
  replayed: number;
}

export class PostgresStore implements CommandLog, SharedLog {
  readonly shared: SharedLog = this;
  /** The last position of the log this replica's memory holds (its own uncommitted commands included). */
  private applied = 0;
  /** The position of the newest snapshot in the store that this replica knows of. */
  private snapshotAt = 0;
  /** Entries of the write under way, in order; committed together. */
  private pending: StoredEntry[] = [];
  /** The shared sides by name, and what the store held for a side not yet shared when it was loaded. */
  private readonly sides = new Map<string, SharedSide<unknown, unknown>>();
  private readonly unclaimed = new Map<string, { state: unknown; changes: unknown[] }>();
  private inWrite = false;
  /** Work outside the log that the write under way commits after (SharedLog.beforeCommit). */
  private alongside: Promise<unknown>[] = [];
  /** Memory may hold commands the store does not: rebuilt from the store before anything else. */
  private stale = false;
  /** The end of the writes queued in this replica: one at a time. */
  private writes: Promise<unknown> = Promise.resolve();
  private rebuilding: Promise<number> | null = null;
  private round: Promise<void> | null = null;
  private nextRound: Promise<void> | null = null;
  private closed = false;
  /** The connection that hears of other replicas' commits (LISTEN), while it is up. */
  private listener: pg.Client | undefined;
  private readonly journals: PostgresJournal[] = [];

  private constructor(
    private readonly pool: pg.Pool,
    private readonly platform: Platform,
    /** The URL without its password. */
    readonly name: string,
  ) {}

  /**
   * Connects to the store, makes its tables on the first start, and loads the platform from it: from
   * the platform's present state when the store holds none yet (this replica's seed or fixtures), else
   * from the store's newest snapshot and the commands after it.
   */
  static async open(
    url: string,
    platform: Platform,
  ): Promise<{ store: PostgresStore; report: StoreOpenReport }> {
    const pool = new pg.Pool({
      connectionString: url,
      // The command log uses at most one write, one catch-up and one snapshot at a time, the
      // request journal one insert at a time (postgres-journal.ts) and its reads.
      max: 5,
      connectionTimeoutMillis: 5_000,
      query_timeout: 15_000,
      application_name: 'lmskit mock',
    });
    // A connection that drops while idle (the server restarting) is an event, not a crash: the next
    // query connects again.
    pool.on('error', () => {});
    const store = new PostgresStore(pool, platform, maskedStoreUrl(url));
    let started: StoreOpenReport['started'] = 'joined';
    const client = await pool.connect().catch(async (error) => {
      await pool.end().catch(() => {});
      throw unavailable(store.name, error);
    });
    try {
      await client.query('BEGIN');
      await prepareSchema(client);
      const { rows } = await client.query('SELECT 1 FROM lmskit_snapshots LIMIT 1');
      if (!rows.length) {
        await client.query('INSERT INTO lmskit_snapshots (seq, state) VALUES (0, $1)', [store.stateText()]);
        started = 'new';
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
      await pool.end().catch(() => {});
      throw error instanceof Error && error.name === 'StoreFromNewerVersion'
        ? error
        : unavailable(store.name, error);
    }
    client.release();
    // A store this replica has just made holds its own state: only what others added since is read.
    const replayed = await (started === 'new' ? store.pull(pool) : store.rebuild()).catch(async (error) => {
      await pool.end().catch(() => {});
      throw error;
    });
    platform.setCommandLog(store);
    store.listen(url);
    return { store, report: { started, replayed } };
  }

  /** The pipeline's counters, one for every replica (postgres-limits.ts). */
  limitCounters(): LimitCounters {
    return postgresLimitCounters(this.query);
  }

  /** Which replica sends each webhook attempt (postgres-claims.ts). */
  deliveryClaims(): DeliveryClaims {
    return postgresDeliveryClaims(this.query);
  }

  /** A query of the counters or claims; a store out of reach is the CommandLogError answered 503. */
  private readonly query: Query = async (text, values) => {
    try {
      return (await this.pool.query(text, values)).rows;
    } catch (error) {
      throw unavailable(this.name, error);
    }
  };

  // --- CommandLog: the entries of the write under way --------------------------------------------

  append(entry: CommandLogEntry): void {
    if (!this.inWrite)
      throw new CommandLogError('A command outside a write cannot be ordered in the shared store.', 1);
    this.pending.push(entry);
    this.applied++;
  }

  retract(entry: CommandLogEntry): void {
    const at = this.pending.lastIndexOf(entry);
    if (at < 0) return;
    this.pending.splice(at, 1);
    this.applied--;
  }

  // --- SharedLog --------------------------------------------------------------------------------

  writing(): boolean {
    return this.inWrite;
  }

  exclusive<T>(action: () => T | Promise<T>): Promise<T> {
    const run = this.writes.then(() => this.write(action));
    this.writes = run.catch(() => {});
    return run;
  }

  beforeCommit(work: Promise<unknown>): void {
    // Caught at once: a failure is the write's, found when it commits.
    work.catch(() => {});
    this.alongside.push(work);
  }

  share<C, R>(name: string, side: SharedSide<C, R>): (change: C) => R {
    const kept = side as SharedSide<unknown, unknown>;
    this.sides.set(name, kept);
    // The store was loaded before the side was shared (the app is made after the store opens).
    const held = this.unclaimed.get(name);
    this.unclaimed.delete(name);
    kept.restore(held?.state);
    for (const change of held?.changes ?? []) kept.apply(change);
    return (change) => {
      if (!this.inWrite)
        throw new CommandLogError('A change outside a write cannot be ordered in the shared store.', 1);
      this.pending.push({ s: name, a: change });
      this.applied++;
      return side.apply(change);
    };
  }

  caughtUp(): Promise<void> {
    // A write of this replica under way holds commands not yet committed: a read waits for it.
    const writes = this.writes;
    if (!this.round) {
      this.round = this.startRound();
      return Promise.all([this.round, writes]).then(() => {});
    }
    this.nextRound ??= this.round.then(
      () => this.followingRound(),
      () => this.followingRound(),
    );
    return Promise.all([this.nextRound, writes]).then(() => {});
  }

  /**
   * The request journal of the sandbox, in this store, holding the last `size` requests of every
   * replica (postgres-journal.ts): the app's `journalStore` (mock/app.ts).
   */
  journal(size: number): PostgresJournal {
    const journal = new PostgresJournal(this.pool, size, this.name);
    this.journals.push(journal);
    return journal;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const { listener } = this;
    this.listener = undefined;
    await listener?.end().catch(() => {});
    for (const journal of this.journals) journal.close();
    await this.writes;
    await this.pool.end().catch(() => {});
  }

  // --- Inside ------------------------------------------------------------------------------------

  /**
   * Hears of every commit (LISTEN on the channel each commit notifies) and takes it in at once: a
   * replica with no requests stays near the log's head, so the next read's catch-up is short, and
   * its webhook dispatcher sees the deliveries other replicas queued (and takes over their retries).
   * A lost connection is made again after a second; what was missed is taken in then.
   */
  private listen(url: string): void {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: url, application_name: 'lmskit mock (listen)' });
    this.listener = client;
    const again = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      client.end().catch(() => {});
      setTimeout(() => this.listen(url), 1_000).unref();
    };
    const takeIn = () => this.caughtUp().catch(() => {});
    client.on('error', again);
    client.on('end', again);
    client.on('notification', ({ payload }) => {
      if (Number(payload) > this.applied) void takeIn();
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      .then(takeIn, again);
  }

  private followingRound(): Promise<void> {
    this.nextRound = null;
    this.round = this.startRound();
    return this.round;
  }

  private startRound(): Promise<void> {
    const round: Promise<void> = (this.stale ? this.rebuild() : this.pull(this.pool)).then(
      () => {},
      (error) => {
        throw unavailable(this.name, error);
      },
    );
    const settled = round.finally(() => {
      if (this.round === settled) this.round = null;
    });
    return settled;
  }

  private async write<T>(action: () => T | Promise<T>): Promise<T> {
    if (this.closed) throw new CommandLogError('The mock is shutting down.', RETRY_AFTER);
    let client: pg.PoolClient;
    try {
      if (this.stale) await this.rebuild();
      client = await this.pool.connect();
    } catch (error) {
      throw unavailable(this.name, error);
    }
    try {
      // One round trip: the transaction, the lock, and the first page of what others committed (the
      // text holds only this replica's own numbers, so it needs no parameters).
      const results = (await client.query(
        `BEGIN; SELECT pg_advisory_xact_lock(${LOCKS.write}); ${this.commandsAfter(this.applied)}`,
      )) as unknown as pg.QueryResult<CommandRow>[];
      if (this.applyRows(results[2]?.rows ?? [])) await this.pull(client);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
      throw unavailable(this.name, error);
    }

    this.pending = [];
    this.alongside = [];
    this.inWrite = true;
    let result: T | undefined;
    let refusal: unknown;
    let refused = false;
    try {
      result = await action();
    } catch (error) {
      refused = true;
      refusal = error;
    } finally {
      this.inWrite = false;
    }
    // A refused request may still have run commands before its refusal (a job settled first): they
    // changed memory, so they are committed like any other.
    const entries = this.pending;
    this.pending = [];
    const first = this.applied - entries.length + 1;
    const alongside = this.alongside;
    this.alongside = [];
    try {
      await Promise.all(alongside);
      // One round trip: the entries, the notice to the other replicas, the commit. The entries are
      // quoted by the driver (escapeLiteral), as parameters would be; a statement that fails stops
      // the rest, and the transaction is rolled back below.
      const rows = entries.map((e, i) => `(${first + i}, ${client.escapeLiteral(JSON.stringify(e))})`);
      await client.query(
        entries.length
          ? `INSERT INTO lmskit_commands (seq, entry) VALUES ${rows.join(', ')};
             SELECT pg_notify('${CHANNEL}', '${this.applied}'); COMMIT`
          : 'COMMIT',
      );
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
      if (entries.length) this.stale = true;
      throw unavailable(this.name, error);
    }
    client.release();
    if (this.applied - this.snapshotAt >= SNAPSHOT_EVERY) this.writeSnapshot();
    if (refused) throw refusal;
    return result as T;
  }

  /** The query of the next page of commands after `seq`. */
  private commandsAfter(seq: number): string {
    return `SELECT seq, entry FROM lmskit_commands WHERE seq > ${Math.trunc(seq)} ORDER BY seq LIMIT ${PAGE}`;
  }

  /** Applies the commands committed after this replica's last, in order. */
  private async pull(db: pg.Pool | pg.PoolClient): Promise<number> {
    const from = this.applied;
    for (;;) {
      const { rows } = await db.query<CommandRow>(this.commandsAfter(this.applied));
      if (!this.applyRows(rows)) return this.applied - from;
    }
  }

  /** Applies a page of commands; answers whether a next page may hold more. */
  private applyRows(rows: CommandRow[]): boolean {
    for (const row of rows) {
      const seq = Number(row.seq);
      // A write of this replica committed while the query was under way: already in memory.
      if (seq <= this.applied) continue;
      if (seq !== this.applied + 1 || this.stale) {
        this.stale = true;
        throw new CommandLogError('The replica lost its place in the shared log; it is rebuilt.', 1);
      }
      const entry = JSON.parse(row.entry) as StoredEntry;
      if (isSide(entry)) this.applySide(entry);
      else this.replay(entry);
      this.applied = seq;
    }
    return rows.length === PAGE;
  }

  private replay(entry: CommandLogEntry): void {
    try {
      this.platform.replay(entry);
    } catch (error) {
      if (error instanceof UnknownCommand) throw error;
      // Every entry in the log ran once without a refusal; one that is refused here means memory
      // departed from the log: rebuilt from the store.
      this.stale = true;
      throw new CommandLogError('The replica departed from the shared log; it is rebuilt.', 1);
    }
  }

  private applySide({ s: name, a: change }: SideEntry): void {
    const side = this.sides.get(name);
    if (side) side.apply(change);
    else {
      const held = this.unclaimed.get(name) ?? { state: undefined, changes: [] };
      held.changes.push(change);
      this.unclaimed.set(name, held);
    }
  }

  /** Loads the newest snapshot and the commands after it; answers how many were replayed. */
  private rebuild(): Promise<number> {
    this.rebuilding ??= this.load().finally(() => {
      this.rebuilding = null;
    });
    return this.rebuilding;
  }

  private async load(): Promise<number> {
    const { rows } = await this.pool.query<{ seq: string; state: string }>(
      'SELECT seq, state FROM lmskit_snapshots ORDER BY seq DESC LIMIT 1',
    );
    const row = rows[0];
    if (!row) throw new CommandLogError('The shared store holds no state.', RETRY_AFTER);
    const stored = JSON.parse(row.state) as StoredState;
    this.platform.loadSnapshot(stored.snapshot);
    this.platform.clock.restore(stored.clock);
    this.unclaimed.clear();
    for (const [name, side] of this.sides) side.restore(stored.sides?.[name]);
    for (const [name, state] of Object.entries(stored.sides ?? {}))
      if (!this.sides.has(name)) this.unclaimed.set(name, { state, changes: [] });
    this.applied = Number(row.seq);
    this.snapshotAt = this.applied;
    this.stale = false;
    return this.pull(this.pool);
  }

  private stateText(): string {
    const sides = Object.fromEntries([...this.sides].map(([name, side]) => [name, side.state()]));
    const state: StoredState = {
      snapshot: this.platform.snapshot(),
      clock: this.platform.clock.state(),
      sides,
    };
    return JSON.stringify(state);
  }

  /**
   * Writes the state as of the replica's last command (taken now, while nothing runs) and drops
   * older snapshots but the one before it. In the background: a failure leaves the older snapshot,
   * and the next replica to pass the mark tries again.
   */
  private writeSnapshot(): void {
    const seq = this.applied;
    this.snapshotAt = seq;
    const text = this.stateText();
    this.pool
      .query('INSERT INTO lmskit_snapshots (seq, state) VALUES ($1, $2) ON CONFLICT (seq) DO NOTHING', [
        seq,
        text,
      ])
      .then(() =>
        this.pool.query(
          'DELETE FROM lmskit_snapshots WHERE seq < (SELECT min(seq) FROM (SELECT seq FROM lmskit_snapshots ORDER BY seq DESC LIMIT 2) newest)',
        ),
      )
      .catch(() => {});
  }
}
