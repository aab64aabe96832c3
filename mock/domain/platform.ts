// The platform: every tenant's state, the virtual clock, and the commands that change them.
// A command is the only way to change state. `run` hands a command to the command log (if any) *before*
// it runs — when the command log cannot keep it, nothing runs and the caller answers 503 — then runs it,
// takes the entry back if the command is refused, and tells listeners about the events it emitted.
// So an answered write is on disk and a write that is not on disk never changed memory. Replaying
// the command log runs the same commands at the same virtual times, which is why commands take every
// random value (ids of keys, hashes) as input.

import { dueJobs, nextJobDue } from './ai.ts';
import { type ClockState, clockTimeProblem, type VirtualClock } from './clock.ts';
import { AGENT_COMMANDS } from './commands/agent.ts';
import { AI_COMMANDS } from './commands/ai.ts';
import type { CommandPlatform, PlatformState, SeedLoader, Snapshot } from './commands/command.ts';
import { FIXTURE_COMMANDS } from './commands/fixtures.ts';
import { KEY_COMMANDS } from './commands/keys.ts';
import { LEARNING_COMMANDS } from './commands/learning.ts';
import { SITE_COMMANDS } from './commands/site.ts';
import { STATE_COMMANDS } from './commands/state.ts';
import { TENANT_COMMANDS } from './commands/tenant.ts';
import { WEBHOOK_COMMANDS } from './commands/webhooks.ts';
import { conflict, invalid, notFound } from './errors.ts';
import type { AiSettings, PlatformEvent } from './model.ts';
import { snapshotProblem } from './snapshot-check.ts';
import { LAST_ID_HANDED_OUT, type SeededTenantData, TenantState } from './tenant-state.ts';
import { withoutPassword } from './users.ts';

// A snapshot and the seeds' loader are shapes the commands pass too: their home is ./commands/command.ts.
export type { SeedLoader, Snapshot } from './commands/command.ts';

/**
 * Settings of a run, not of the state: what every tenant a seed brings gets (at start and at each
 * reset), and what fixtures loaded later resolve before their command is logged. A snapshot does
 * not hold them, so a reset replayed from a state file takes those of the run replaying it.
 */
export interface RunSettings {
  /** The AI settings of every seeded tenant (startMock's `ai`, `lmskit mock --ai-seconds`). */
  ai?: Partial<AiSettings>;
}

/**
 * The commands, by name, from one module per area (./commands/). Each takes the platform (as
 * ./commands/command.ts declares what a command may use of it, so that no command module imports this
 * one back) and plain, serialisable arguments.
 */
export const COMMANDS = {
  ...SITE_COMMANDS,
  ...LEARNING_COMMANDS,
  ...TENANT_COMMANDS,
  ...KEY_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...AGENT_COMMANDS,
  ...AI_COMMANDS,
  ...STATE_COMMANDS,
  ...FIXTURE_COMMANDS,
};

export type CommandName = keyof typeof COMMANDS;

/**
 * Names a command had in command logs written by earlier versions, and the name it has now: a state
 * file replays whatever version wrote it. The ban is called a ban everywhere inside (seed 001,
 * "User ban state"); `blockUser` stays only as the v1 operationId the contract gives it.
 */
const FORMER_NAMES: Record<string, CommandName> = { blockUser: 'banUser' };
export type CommandArgs<N extends CommandName> = Parameters<(typeof COMMANDS)[N]>[1];
export type CommandResult<N extends CommandName> = ReturnType<(typeof COMMANDS)[N]>;
export interface CommandLogEntry {
  t: CommandName;
  a: unknown;
  at: number;
  /** In a shared store: the clock after the command ran, which every replica takes. */
  c?: ClockState;
}

/**
 * A command log that several processes share (../store/postgres-store.ts): it decides the order of
 * every process's commands, so a command is run only while the process holds the log (`exclusive`),
 * and a read first takes in what the others committed (`caughtUp`).
 */
export interface SharedLog {
  /**
   * Brings the platform up to the log's head, runs `action` with every other writer shut out, and
   * commits what it appended before settling; rejects with a CommandLogError when the log cannot be
   * reached or the commit fails (then nothing the action did is kept).
   */
  exclusive<T>(action: () => T | Promise<T>): Promise<T>;
  /** Whether an `exclusive` action is running: only then may a command be appended. */
  writing(): boolean;
  /** Settles once the platform holds every command committed before the call. */
  caughtUp(): Promise<void>;
  /**
   * Work outside the log that goes with the write under way (a shared counter cleared by a reset):
   * the write commits only once it is done, and fails (committing nothing) when it fails.
   */
  beforeCommit(work: Promise<unknown>): void;
  /**
   * Keeps `side`, state outside the platform that every replica must hold alike (the injected faults),
   * in the log. The function it answers appends a change (only inside `exclusive`) and applies it
   * here; every replica applies the change in the log's order, and one that starts from a snapshot
   * restores the side's state kept with it.
   */
  share<C, R>(name: string, side: SharedSide<C, R>): (change: C) => R;
}

/** State outside the platform kept alike by every replica of a shared log (SharedLog.share). */
export interface SharedSide<C, R> {
  /** Applies one change: plain JSON, as it is logged. */
  apply(change: C): R;
  /** The whole state, as plain JSON, for a snapshot of the store. */
  state(): unknown;
  /** Takes the state of a snapshot (undefined: none was kept, the state is empty). */
  restore(state: unknown): void;
}

/** Where commands are made durable (the state file, ../store/state-file.ts; a shared store). */
export interface CommandLog {
  /** Makes the entry durable before its command runs; throws a CommandLogError when it cannot. */
  append(entry: CommandLogEntry): void;
  /** Takes back the entry just appended: its command was refused and changed nothing. */
  retract(entry: CommandLogEntry): void;
  /**
   * With `--fsync`: settles once every entry appended so far is flushed to disk (rejects with a
   * CommandLogError when flushing failed); undefined when there is nothing to wait for.
   */
  durable?(): Promise<void> | undefined;
  /** Present when other processes share the log. */
  shared?: SharedLog;
}

/**
 * A command-log line holds a command this version does not know: a newer lmskit wrote it. Replaying past
 * it would lose what it did, so the start stops (docs/mock.md, Durable state).
 */
export class UnknownCommand extends Error {
  constructor(readonly command: string) {
    super(`the command ${command}, which this version of lmskit does not know: a newer lmskit wrote it`);
    this.name = 'UnknownCommand';
  }
}

/** The command log could not keep a command, so it did not run: nothing changed, and a retry may work. */
export class CommandLogError extends Error {
  constructor(
    message: string,
    /** Seconds after which a retry is worth it. */
    readonly retryAfter = 10,
  ) {
    super(message);
    this.name = 'CommandLogError';
  }
}

/**
 * A write refused because a tenant's ids are used up: a counter of its snapshot is at
 * LAST_ID_HANDED_OUT (tenant-state.ts). Nothing changed; answered as the state that cannot be kept
 * (503 STATE_NOT_SAVED) with no Retry-After, since only a reset or another snapshot helps.
 */
export class IdsUsedUp extends Error {
  constructor(tenantId: string, kind: string) {
    super(
      `The change was not saved: tenant ${tenantId} has handed out its last id of seq.${kind} (${LAST_ID_HANDED_OUT}; ids stay 32-bit integers). Nothing was changed; reset the mock or load a snapshot with lower counters.`,
    );
    this.name = 'IdsUsedUp';
  }
}

/** Commands that take no ids of a tenant's own making, or replace every counter: never refused by IdsUsedUp. */
const WITHOUT_NEW_IDS = new Set<CommandName>([
  'reset',
  'importSnapshot',
  'loadFixtures',
  'advanceClock',
  'setClock',
  'settleJobs',
]);

/** Arguments as they are logged: a user's password only as its hash, never in clear. */
function asLogged<A>(args: A): A {
  const input = (args as { input?: { password?: string } }).input;
  return input?.password === undefined ? args : { ...args, input: withoutPassword(input) };
}

/** The events of a log (in id order) with an id above `id`: the newest, found from the end. */
function eventsAfter(events: PlatformEvent[], id: number): PlatformEvent[] {
  let from = events.length;
  while (from > 0 && (events[from - 1] as PlatformEvent).id > id) from--;
  return events.slice(from);
}

export class Platform implements CommandPlatform {
  readonly tenants = new Map<string, TenantState>();
  /** Goes up with every change of state: what a read may cache is valid for one version. */
  version = 0;
  private readonly bySiteKey = new Map<string, TenantState>();
  private commandLog: CommandLog | null = null;
  /** Entries handed to the command log so far: a request compares it before and after its handler. */
  private logged = 0;
  private readonly eventListeners = new Set<(tenant: TenantState, events: PlatformEvent[]) => void>();
  private readonly loadListeners = new Set<() => void>();
  private readonly deliveryListeners = new Set<(tenant: TenantState) => void>();

  /** The seeds a reset loads, with the run's settings applied to their tenants. */
  readonly seeds: SeedLoader;

  constructor(
    readonly clock: VirtualClock,
    seeds: SeedLoader,
    readonly settings: RunSettings = {},
  ) {
    const ai = settings.ai;
    this.seeds = ai
      ? (name) => {
          const seed = seeds(name);
          return { ...seed, tenants: seed.tenants.map((t) => ({ ...t, ai: { ...t.ai, ...ai } })) };
        }
      : seeds;
  }

  /** While a command runs, the time it started: a command sees one instant, as its replay will. */
  private heldNow: number | null = null;

  now(): number {
    return this.heldNow ?? this.clock.now();
  }

  private atInstant<T>(at: number, action: () => T): T {
    this.heldNow = at;
    try {
      return action();
    } finally {
      this.heldNow = null;
    }
  }

  tenant(id: string): TenantState {
    const tenant = this.tenants.get(id);
    if (!tenant) throw notFound(`tenant ${id}`);
    return tenant;
  }

  tenantBySiteKey(key: string): TenantState | undefined {
    return this.bySiteKey.get(key);
  }

  /** Adds a tenant beside the others; its id and site API key must be new (TENANT_EXISTS). */
  addTenant(tenant: TenantState): TenantState {
    if (this.tenants.has(tenant.id) || this.bySiteKey.has(tenant.siteApiKey))
      throw conflict(
        'TENANT_EXISTS',
        `A tenant with the id ${tenant.id} or the site API key ${tenant.siteApiKey} exists already.`,
      );
    this.tenants.set(tenant.id, tenant);
    this.bySiteKey.set(tenant.siteApiKey, tenant);
    return tenant;
  }

  /**
   * Logs a command, runs it (taking the entry back if it is refused) and announces the events it
   * emitted. Throws the command log's CommandLogError, before anything changed, when it cannot be kept.
   * Generation jobs whose time has come are settled first (their own command), so their courses take
   * their ids before anything this command makes, and again after it, which may have moved the clock
   * (advance, set, a reset, an import) or made a job due at once (`--ai-seconds 0`).
   */
  run<N extends CommandName>(name: N, args: CommandArgs<N>): CommandResult<N> {
    this.settleDueJobs();
    const result = this.execute(name, args);
    try {
      this.settleDueJobs();
    } catch (error) {
      // The command is done and answered as such; a settlement the command log cannot keep now is tried
      // again by the next request, and gives the same ids then (completion order).
      if (!(error instanceof CommandLogError)) throw error;
    }
    this.armJobTimer();
    return result;
  }

  // --- Generation jobs in the background (seed 000, AI tools: "generation runs in the background") --

  /** When the earliest queued job comes due; undefined when jobs changed since it was last found. */
  private nextDue: number | undefined;
  private jobTimer: ReturnType<typeof setTimeout> | undefined;
  private jobTimerOn = false;
  /** A settlement waiting for the shared log's turn. */
  private settling: Promise<void> | undefined;

  /** Jobs were made, settled or replaced: when the next one is due is found again on the next look. */
  jobsChanged(): void {
    this.nextDue = undefined;
  }

  /**
   * Settles every generation job whose time the clock has passed, in the order they finish, by one
   * logged `settleJobs` command: its course exists for every API, the console and the snapshot
   * with no poll, and a replay gives it the same id. Costs a comparison while no job is due (the next
   * due time is kept until jobs change). Run before and after every command, on every request
   * (mock/app.ts) and, on a running clock, by a timer (`settleJobsOnTime`). Throws the command log's
   * CommandLogError, before anything changed, when it cannot be kept.
   */
  settleDueJobs(): void {
    // Never inside a command: it sees one instant, as its replay will.
    if (this.heldNow !== null) return;
    const now = this.clock.now();
    this.nextDue ??= nextJobDue(this.tenants.values());
    if (now < this.nextDue) return;
    // A shared log takes commands only while this process holds it: the settlement waits its turn
    // (a replica that settles them first leaves none due here).
    // One settlement in flight: the requests that find the job due meanwhile do not queue more.
    const shared = this.commandLog?.shared;
    if (shared && !shared.writing()) {
      this.settling ??= shared
        .exclusive(() => this.settleDueJobs())
        .catch(() => {})
        .finally(() => {
          this.settling = undefined;
        });
      return;
    }
    const jobs = dueJobs(this.tenants.values(), now);
    if (jobs.length) this.execute('settleJobs', { jobs });
    this.jobsChanged();
    this.armJobTimer();
  }

  /**
   * While the clock follows wall time, settles each job when its time comes, with no request to do it
   * (one timer, armed for the earliest job, so the state file holds the course although nobody asked);
   * a frozen clock moves only through commands, which settle after them. Returns what stops it.
   */
  settleJobsOnTime(): () => void {
    this.jobTimerOn = true;
    this.armJobTimer();
    return () => {
      this.jobTimerOn = false;
      clearTimeout(this.jobTimer);
      this.jobTimer = undefined;
    };
  }

  private armJobTimer(): void {
    clearTimeout(this.jobTimer);
    this.jobTimer = undefined;
    if (!this.jobTimerOn || this.clock.frozen) return;
    this.nextDue ??= nextJobDue(this.tenants.values());
    if (!Number.isFinite(this.nextDue)) return;
    // Whole seconds of virtual time away; a far job is looked at again within the hour, since a
    // timer of more than 24.8 days fires at once.
    this.armJobTimerIn(Math.min(Math.max(0, this.nextDue - this.clock.now()) * 1000, 3_600_000));
  }

  private armJobTimerIn(ms: number): void {
    this.jobTimer = setTimeout(() => {
      this.jobTimer = undefined;
      try {
        this.settleDueJobs();
      } catch (error) {
        if (!(error instanceof CommandLogError)) throw error;
        // The command log cannot keep it now (a full disk): again when a retry is worth it.
        this.armJobTimerIn(error.retryAfter * 1000);
        return;
      }
      this.armJobTimer();
    }, ms);
    // A pending job never keeps the process alive.
    this.jobTimer.unref?.();
  }

  private execute<N extends CommandName>(name: N, args: CommandArgs<N>): CommandResult<N> {
    if (!WITHOUT_NEW_IDS.has(name))
      for (const tenant of this.tenants.values()) {
        const kind = tenant.counterAtOrPast(LAST_ID_HANDED_OUT);
        if (kind) throw new IdsUsedUp(tenant.id, kind);
      }
    const at = this.now();
    // Written down only where a command log keeps it: hashing a new user's password for no command log was
    // 2 % of a write's CPU without --state-file.
    const entry: CommandLogEntry | null = this.commandLog ? { t: name, a: asLogged(args), at } : null;
    if (entry) {
      this.commandLog?.append(entry);
      this.logged++;
    }
    // What a command added is what took a higher id than before it: the event log is cut from the
    // front (domain/events.ts), so its length cannot tell.
    const before = new Map<string, { event: number; delivery: number }>();
    for (const [id, t] of this.tenants)
      before.set(id, { event: t.seq.event ?? 0, delivery: t.seq.delivery ?? 0 });
    const command = COMMANDS[name] as (p: CommandPlatform, a: CommandArgs<N>) => CommandResult<N>;
    let result: CommandResult<N>;
    try {
      result = this.atInstant(at, () => command(this, args));
    } catch (error) {
      if (entry) this.commandLog?.retract(entry);
      throw error;
    }
    if (entry && this.commandLog?.shared) entry.c = this.clock.state();
    this.version++;
    for (const [id, tenant] of this.tenants) {
      const was = before.get(id);
      if (!was) continue;
      if (this.eventListeners.size && (tenant.seq.event ?? 0) > was.event) {
        const fresh = eventsAfter(tenant.events, was.event);
        for (const listener of this.eventListeners) listener(tenant, fresh);
      }
      // Every delivery takes the next `delivery` id (domain/webhooks.ts), so a higher one means new ones.
      if ((tenant.seq.delivery ?? 0) > was.delivery)
        for (const listener of this.deliveryListeners) listener(tenant);
    }
    return result;
  }

  /**
   * Re-runs a logged command at its recorded virtual time, without logging it again. A
   * command that throws was refused when it first ran too (the process stopped before its entry was
   * taken back): it changed nothing then and changes nothing now.
   */
  replay(entry: CommandLogEntry): void {
    this.clock.set(entry.at);
    const name = FORMER_NAMES[entry.t] ?? entry.t;
    const command = Object.hasOwn(COMMANDS, name)
      ? (COMMANDS[name] as (p: CommandPlatform, a: unknown) => unknown)
      : undefined;
    if (!command) throw new UnknownCommand(String(entry.t));
    const deliveries = new Map([...this.tenants].map(([id, t]) => [id, t.seq.delivery ?? 0]));
    this.atInstant(entry.at, () => command(this, entry.a));
    if (entry.c) this.clock.restore(entry.c);
    this.version++;
    this.jobsChanged();
    // Another replica's command queued deliveries (a shared store): this one's dispatcher may send them.
    for (const [id, tenant] of this.tenants)
      if ((tenant.seq.delivery ?? 0) > (deliveries.get(id) ?? Number.POSITIVE_INFINITY))
        for (const listener of this.deliveryListeners) listener(tenant);
  }

  setCommandLog(log: CommandLog | null): void {
    this.commandLog = log;
  }

  /**
   * Runs a request's writes: at once without a shared log; with one, once this process holds it
   * (SharedLog.exclusive), so that its commands take their place in the one order of every replica.
   */
  exclusive<T>(action: () => T): T | Promise<Awaited<T>> {
    const shared = this.commandLog?.shared;
    return shared ? shared.exclusive(action as () => Awaited<T> | Promise<Awaited<T>>) : action();
  }

  /**
   * Runs work that goes with a command but is kept outside the platform (the pipeline's counters): at
   * once without a shared log. With one, only in the replica that runs the command, not in those that
   * replay it (the counters are shared too), and the command commits once the work is done.
   */
  alongside(work: () => Promise<unknown> | undefined): void {
    const shared = this.commandLog?.shared;
    if (shared && !shared.writing()) return;
    const done = work();
    if (shared && done) shared.beforeCommit(done);
  }

  /** The log this process shares with other replicas (a shared store), if any. */
  get sharedLog(): SharedLog | undefined {
    return this.commandLog?.shared;
  }

  /** Settles once every command committed by any replica is in this platform; undefined without a shared log. */
  caughtUp(): Promise<void> | undefined {
    return this.commandLog?.shared?.caughtUp();
  }

  /** A mark to hand to `durable` later: how many commands were logged so far. */
  writeMark(): number {
    return this.logged;
  }

  /**
   * When commands were logged since `mark` and the command log flushes to disk (`--fsync`): settles
   * once they are on disk, so that the answer of a write waits for its own line (and those of the
   * batch it joined). Undefined when there is nothing to wait for.
   */
  durable(mark: number): Promise<void> | undefined {
    if (mark === this.logged) return undefined;
    return this.commandLog?.durable?.();
  }

  onEvents(listener: (tenant: TenantState, events: PlatformEvent[]) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /**
   * Called after a command queued webhook deliveries in a tenant (an event's, or a redelivery), for the
   * dispatcher to send them.
   */
  onDeliveriesQueued(listener: (tenant: TenantState) => void): () => void {
    this.deliveryListeners.add(listener);
    return () => this.deliveryListeners.delete(listener);
  }

  /**
   * Replaces the whole state. The records are copied unless `adopt` says they are the platform's to
   * keep (a seed built for it, at a size where a copy would double the start time).
   */
  load(state: PlatformState, adopt = false): void {
    // Build everything first: a state that cannot be read leaves the current one as it was.
    // A seed's columnar assignments (seed/scale.ts) are built afresh for each load, and a table is no
    // plain data to copy: such a tenant is always adopted.
    const tenants = state.tenants.map(
      (data: SeededTenantData) =>
        new TenantState(adopt || data.assignmentTable ? data : structuredClone(data)),
    );
    this.version++;
    this.jobsChanged();
    this.tenants.clear();
    this.bySiteKey.clear();
    for (const tenant of tenants) {
      this.tenants.set(tenant.id, tenant);
      this.bySiteKey.set(tenant.siteApiKey, tenant);
    }
    this.clock.set(state.now);
    for (const listener of this.loadListeners) listener();
  }

  /** Called after the whole state was replaced (reset, snapshot import). */
  onLoad(listener: () => void): () => void {
    this.loadListeners.add(listener);
    return () => this.loadListeners.delete(listener);
  }

  /** Checks the outline of a snapshot (from a file or the admin API) and loads it. */
  loadSnapshot(snapshot: Snapshot): void {
    if (snapshot?.format === 'lmskit-state' && typeof snapshot.version === 'number' && snapshot.version > 1)
      throw invalid(
        `the snapshot has version ${snapshot.version}: a newer lmskit wrote it, and this one reads version 1`,
      );
    if (snapshot?.format !== 'lmskit-state' || snapshot.version !== 1 || typeof snapshot.now !== 'number') {
      throw invalid('not an lmskit state snapshot (format lmskit-state, version 1)');
    }
    // Its invariants before anything is built: counters behind the records handed out ids already
    // taken, and every later create failed.
    const problem = snapshotProblem(snapshot);
    if (problem) throw invalid(`the snapshot cannot be loaded: ${problem}`);
    // Its time, as setClock takes one (openapi/admin ClockTime): a state file is not checked by the contract.
    const late = clockTimeProblem(snapshot.now);
    if (late) throw invalid(`the snapshot cannot be loaded: now ${late}`);
    try {
      this.load({ now: snapshot.now, tenants: Object.values(snapshot.tenants) });
    } catch (error) {
      // The contract checks the snapshot's shape first; what still fails here is named by kind, not
      // by the runtime's own words, which would leak the mock's code into the API.
      throw invalid(
        `the snapshot cannot be loaded: a record does not have the shape GET /__admin/snapshot gives (${(error as Error).name})`,
      );
    }
  }

  snapshot(): Snapshot {
    return {
      format: 'lmskit-state',
      version: 1,
      now: this.now(),
      tenants: Object.fromEntries([...this.tenants].map(([id, t]) => [id, t.toData()])),
    };
  }
}
