// The platform: every tenant's state, the virtual clock, and the commands that change them.
// A command is the only way to change state. `run` hands a command to the journal (if any) *before*
// it runs — when the journal cannot keep it, nothing runs and the caller answers 503 — then runs it,
// takes the entry back if the command is refused, and tells listeners about the events it emitted.
// So an answered write is on disk and a write that is not on disk never changed memory. Replaying
// the journal runs the same commands at the same virtual times, which is why commands take every
// random value (ids of keys, hashes) as input.
import {
  type AssignUserInput,
  assignChain,
  assignCourseToGroups,
  assignUserToCourse,
  banByAgent,
  changeEmailByAgent,
  cloneByAgent,
  unbanByAgent,
} from './agent-writes.ts';
import {
  consumeAiQuota,
  createJob,
  type GenerateInput,
  processUpload,
  recordUpload,
  refineCourse,
  regenerateLesson,
  regenerateQuestion,
  settleJob,
  type UploadInput,
  updateAiSettings,
} from './ai.ts';
import { assign, assignToGroup, finishCourse, setProgress, startCourse } from './assignments.ts';
import { type AttributeInput, upsertAttributes } from './attributes.ts';
import { type Actor, SITE_KEY } from './audit.ts';
import type { VirtualClock } from './clock.ts';
import { publishCourse } from './courses.ts';
import { DomainError, notFound } from './errors.ts';
import { createGroup, type GroupInput, updateGroup } from './groups.ts';
import type {
  AiSettings,
  McpAccess,
  McpKey,
  PlatformEvent,
  TenantData,
  User,
  WebhookDelivery,
} from './model.ts';
import { TenantState } from './tenant-state.ts';
import {
  banUser,
  type CreateUserInput,
  createUser,
  type UpdateUserInput,
  updateUser,
  userByApiId,
  userById,
  withoutPassword,
} from './users.ts';
import { createReceiver, deleteReceiver, recordAttempt } from './webhooks.ts';

export interface Snapshot {
  format: 'lmskit-state';
  version: 1;
  now: number;
  tenants: Record<string, TenantData>;
}

export type SeedLoader = (name: string) => { now: number; tenants: TenantData[] };

const ADMIN: Actor = { userId: null };

/** Seed 000, Authentication 7: key generation and revocation need an MCP licence (else 402). */
function requireMcpLicence(t: TenantState): void {
  if (!t.mcpLicensed) {
    throw new DomainError(
      'forbidden',
      'MCP is not licensed for this workspace',
      {},
      undefined,
      'LICENSE_RESTRICTED',
    );
  }
}

/** The key owner a `/api/v2` command acts as. */
const actor = (p: Platform, a: { tenantId: string; actorId: number }): User =>
  userById(p.tenant(a.tenantId), a.actorId);
type AgentArgs = { tenantId: string; actorId: number };
/** `quotaKeyId`: the key whose daily AI quota the call uses (seed 000, Limits). */
type AiArgs = AgentArgs & { quotaKeyId?: string };

/**
 * An AI call that succeeded counts against the day's quota in the same command, so the call and its
 * count are journalled, or refused, together.
 */
function counted<R>(p: Platform, a: AiArgs, result: R): R {
  if (a.quotaKeyId) consumeAiQuota(p.tenant(a.tenantId), a.quotaKeyId, p.now());
  return result;
}

/** The commands, by name. Each takes the platform and plain, serialisable arguments. */
export const COMMANDS = {
  createUser: (p: Platform, a: { tenantId: string; input: CreateUserInput }) =>
    createUser(p.tenant(a.tenantId), SITE_KEY, a.input, p.now()),

  updateUser: (p: Platform, a: { tenantId: string; apiId: string; input: UpdateUserInput }) =>
    updateUser(p.tenant(a.tenantId), SITE_KEY, a.apiId, a.input, p.now()),

  blockUser: (p: Platform, a: { tenantId: string; apiId: string }) => {
    const t = p.tenant(a.tenantId);
    return banUser(t, SITE_KEY, userByApiId(t, a.apiId), p.now());
  },

  upsertAttributes: (
    p: Platform,
    a: { tenantId: string; scope: 'user' | 'group'; inputs: AttributeInput[] },
  ) => upsertAttributes(p.tenant(a.tenantId), a.scope, a.inputs),

  createGroup: (p: Platform, a: { tenantId: string; input: GroupInput }) =>
    createGroup(p.tenant(a.tenantId), SITE_KEY, a.input, p.now()),

  updateGroup: (p: Platform, a: { tenantId: string; groupId: number; input: GroupInput }) =>
    updateGroup(p.tenant(a.tenantId), SITE_KEY, a.groupId, a.input, p.now()),

  /**
   * v1 `POST /courses/{courseId}/assignments`: answers those successfully assigned (seed 001);
   * unknown or banned users and unknown groups are left out of the answer, not an error.
   */
  assignCourse: (
    p: Platform,
    a: {
      tenantId: string;
      courseId: number;
      users: string[];
      groups: number[];
      assignAt?: number;
      deadlineAt?: number;
    },
  ) => {
    const t = p.tenant(a.tenantId);
    if (!t.courses.has(a.courseId)) throw notFound(`course ${a.courseId}`);
    const options = { startAt: a.assignAt ?? null, deadlineAt: a.deadlineAt ?? null };
    const users = a.users.flatMap((apiId) => {
      const user = t.userByApiId(apiId);
      if (!user || user.isBanned) return [];
      assign(t, user.id, a.courseId, options, p.now());
      return [user];
    });
    const groups = a.groups.flatMap((id) => {
      const group = t.groups.get(id);
      if (!group) return [];
      assignToGroup(t, id, a.courseId, options, p.now());
      return [group];
    });
    return { users, groups };
  },

  recordProgress: (
    p: Platform,
    a: {
      tenantId: string;
      userId: number;
      courseId: number;
      action: 'start' | 'progress' | 'finish';
      progressValue?: number;
      resultValue?: number;
    },
  ) => {
    const t = p.tenant(a.tenantId);
    if (a.action === 'start') return startCourse(t, a.userId, a.courseId, p.now());
    if (a.action === 'progress') return setProgress(t, a.userId, a.courseId, a.progressValue ?? 0, p.now());
    return finishCourse(t, ADMIN, a.userId, a.courseId, a.resultValue ?? 100, p.now());
  },

  publishCourse: (p: Platform, a: { tenantId: string; courseId: number }) =>
    publishCourse(p.tenant(a.tenantId), ADMIN, a.courseId, p.now()),

  updateTenant: (
    p: Platform,
    a: { tenantId: string; mcpLicensed?: boolean; mcpAccess?: McpAccess; mcpAiAccess?: boolean },
  ) => {
    const t = p.tenant(a.tenantId);
    if (a.mcpLicensed !== undefined) t.mcpLicensed = a.mcpLicensed;
    if (a.mcpAccess !== undefined) t.mcpAccess = a.mcpAccess;
    if (a.mcpAiAccess !== undefined) t.mcpAiAccess = a.mcpAiAccess;
    return t;
  },

  /** The key's hash comes in: the key itself is made (randomly) and shown by the caller, never stored. */
  createMcpKey: (
    p: Platform,
    a: {
      tenantId: string;
      id: string;
      userId: number;
      prefix: string;
      hash: string;
      scopes: McpKey['scopes'];
    },
  ) => {
    const t = p.tenant(a.tenantId);
    requireMcpLicence(t);
    if (!t.users.has(a.userId)) throw notFound(`user ${a.userId}`);
    const key: McpKey = {
      id: a.id,
      userId: a.userId,
      prefix: a.prefix,
      hash: a.hash,
      scopes: a.scopes,
      createdAt: p.now(),
      lastUsedAt: null,
      revokedAt: null,
    };
    t.addMcpKey(key);
    return key;
  },

  /** Seed 000, Authentication 7: generation and revocation answer 402 without an MCP licence. */
  revokeMcpKey: (p: Platform, a: { tenantId: string; keyId: string }) => {
    const t = p.tenant(a.tenantId);
    requireMcpLicence(t);
    const key = t.mcpKeys.get(a.keyId);
    if (!key) throw notFound(`key ${a.keyId}`);
    key.revokedAt ??= p.now();
    return key;
  },

  createReceiver: (
    p: Platform,
    a: { tenantId: string; url: string; secret: string; events: string[] | null },
  ) => createReceiver(p.tenant(a.tenantId), a, p.now()),

  deleteReceiver: (p: Platform, a: { tenantId: string; receiverId: string }) =>
    deleteReceiver(p.tenant(a.tenantId), a.receiverId),

  recordDeliveryAttempt: (
    p: Platform,
    a: {
      tenantId: string;
      deliveryId: string;
      attempt: WebhookDelivery['attempts'][number];
      state: WebhookDelivery['state'];
      nextAttemptAt: string | null;
    },
  ) => recordAttempt(p.tenant(a.tenantId), a.deliveryId, a.attempt, a.state, a.nextAttemptAt),

  // The /api/v2 writes, acting as the MCP key's owner.

  assignUserV2: (p: Platform, a: AgentArgs & { courseId: number; input: AssignUserInput }) =>
    assignUserToCourse(p.tenant(a.tenantId), a.actorId, a.courseId, a.input, p.now()),

  assignGroupsV2: (p: Platform, a: AgentArgs & { courseId: number; groups: number[]; deadlineAt?: number }) =>
    assignCourseToGroups(p.tenant(a.tenantId), a.actorId, a.courseId, a.groups, a.deadlineAt, p.now()),

  assignChain: (
    p: Platform,
    a: AgentArgs & { chainId: number; users?: number[]; groups?: number[]; deadlineAt?: number },
  ) => assignChain(p.tenant(a.tenantId), actor(p, a), a.chainId, a, p.now()),

  banV2: (p: Platform, a: AgentArgs & { userId: number }) =>
    banByAgent(p.tenant(a.tenantId), actor(p, a), a.userId, p.now()),

  unbanV2: (p: Platform, a: AgentArgs & { userId: number }) =>
    unbanByAgent(p.tenant(a.tenantId), actor(p, a), a.userId, p.now()),

  changeEmailV2: (p: Platform, a: AgentArgs & { userId: number; email: string }) =>
    changeEmailByAgent(p.tenant(a.tenantId), actor(p, a), a.userId, a.email, p.now()),

  cloneV2: (p: Platform, a: AgentArgs & { courseId: number }) =>
    cloneByAgent(p.tenant(a.tenantId), actor(p, a), a.courseId, p.now()),

  // AI: the extracted chunks come in, so replay needs neither the file nor the extractor.

  recordUpload: (p: Platform, a: UploadInput & { tenantId: string }) =>
    recordUpload(p.tenant(a.tenantId), a, p.now()),

  processUpload: (p: Platform, a: { tenantId: string; sessionId: string; fileId: string }) =>
    processUpload(p.tenant(a.tenantId), a.sessionId, a.fileId),

  createJob: (p: Platform, a: AiArgs & { input: GenerateInput }) =>
    counted(p, a, createJob(p.tenant(a.tenantId), actor(p, a), a.input, p.now())),

  settleJob: (p: Platform, a: { tenantId: string; jobId: string }) =>
    settleJob(p.tenant(a.tenantId), a.jobId, p.now()),

  refineCourse: (p: Platform, a: AiArgs & { courseId: number; feedback: string }) =>
    counted(p, a, refineCourse(p.tenant(a.tenantId), actor(p, a), a.courseId, a.feedback, p.now())),

  regenerateQuestion: (p: Platform, a: AiArgs & { questionId: number; feedback?: string }) =>
    counted(p, a, regenerateQuestion(p.tenant(a.tenantId), actor(p, a), a.questionId, a.feedback, p.now())),

  regenerateLesson: (p: Platform, a: AiArgs & { lessonId: number; feedback?: string }) =>
    counted(p, a, regenerateLesson(p.tenant(a.tenantId), actor(p, a), a.lessonId, a.feedback, p.now())),

  /** A separate command in journals written before AI calls counted themselves (see `counted`). */
  consumeAiQuota: (p: Platform, a: { tenantId: string; keyId: string }) =>
    consumeAiQuota(p.tenant(a.tenantId), a.keyId, p.now()),

  updateAiSettings: (p: Platform, a: { tenantId: string; patch: Partial<AiSettings> }) =>
    updateAiSettings(p.tenant(a.tenantId), a.patch),

  // These move the clock itself: they answer the clock's new time, not the instant they started at.
  advanceClock: (p: Platform, a: { seconds: number }) => {
    p.clock.advance(a.seconds);
    return p.clock.now();
  },

  setClock: (p: Platform, a: { now: number }) => {
    p.clock.set(a.now);
    return p.clock.now();
  },

  reset: (p: Platform, a: { seed: string }) => {
    p.load(p.seeds(a.seed));
    return p.clock.now();
  },

  /** Replaces the whole state with an exported one (admin API, `PUT /__admin/snapshot`). */
  importSnapshot: (p: Platform, a: { snapshot: Snapshot }) => {
    p.loadSnapshot(a.snapshot);
    return p.clock.now();
  },
};

export type CommandName = keyof typeof COMMANDS;
export type CommandArgs<N extends CommandName> = Parameters<(typeof COMMANDS)[N]>[1];
export type CommandResult<N extends CommandName> = ReturnType<(typeof COMMANDS)[N]>;
export interface JournalEntry {
  t: CommandName;
  a: unknown;
  at: number;
}

/** Where commands are made durable (the state file, ../store/state-file.ts). */
export interface Journal {
  /** Makes the entry durable before its command runs; throws a JournalError when it cannot. */
  append(entry: JournalEntry): void;
  /** Takes back the entry just appended: its command was refused and changed nothing. */
  retract(entry: JournalEntry): void;
}

/** The journal could not keep a command, so it did not run: nothing changed, and a retry may work. */
export class JournalError extends Error {
  constructor(
    message: string,
    /** Seconds after which a retry is worth it. */
    readonly retryAfter = 10,
  ) {
    super(message);
    this.name = 'JournalError';
  }
}

/** Arguments as they are journalled: a user's password only as its hash, never in clear. */
function journalled<A>(args: A): A {
  const input = (args as { input?: { password?: string } }).input;
  return input?.password === undefined ? args : { ...args, input: withoutPassword(input) };
}

export class Platform {
  readonly tenants = new Map<string, TenantState>();
  /** Goes up with every change of state: what a read may cache is valid for one version. */
  version = 0;
  private readonly bySiteKey = new Map<string, TenantState>();
  private journal: Journal | null = null;
  private readonly eventListeners = new Set<(tenant: TenantState, events: PlatformEvent[]) => void>();
  private readonly loadListeners = new Set<() => void>();

  constructor(
    readonly clock: VirtualClock,
    readonly seeds: SeedLoader,
  ) {}

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

  /**
   * Journals a command, runs it (taking the entry back if it is refused) and announces the events it
   * emitted. Throws the journal's JournalError, before anything changed, when it cannot be kept.
   */
  run<N extends CommandName>(name: N, args: CommandArgs<N>): CommandResult<N> {
    const at = this.now();
    const entry: JournalEntry = { t: name, a: journalled(args), at };
    this.journal?.append(entry);
    const eventCounts = new Map([...this.tenants].map(([id, t]) => [id, t.events.length]));
    const command = COMMANDS[name] as (p: Platform, a: CommandArgs<N>) => CommandResult<N>;
    let result: CommandResult<N>;
    try {
      result = this.atInstant(at, () => command(this, args));
    } catch (error) {
      this.journal?.retract(entry);
      throw error;
    }
    this.version++;
    for (const [id, tenant] of this.tenants) {
      const fresh = tenant.events.slice(eventCounts.get(id) ?? tenant.events.length);
      if (fresh.length) for (const listener of this.eventListeners) listener(tenant, fresh);
    }
    return result;
  }

  /**
   * Re-runs a journalled command at its recorded virtual time, without journalling it again. A
   * command that throws was refused when it first ran too (the process stopped before its entry was
   * taken back): it changed nothing then and changes nothing now.
   */
  replay(entry: JournalEntry): void {
    this.clock.set(entry.at);
    const command = COMMANDS[entry.t] as ((p: Platform, a: unknown) => unknown) | undefined;
    if (!command) throw new Error(`unknown command ${entry.t}`);
    this.atInstant(entry.at, () => command(this, entry.a));
    this.version++;
  }

  setJournal(journal: Journal | null): void {
    this.journal = journal;
  }

  onEvents(listener: (tenant: TenantState, events: PlatformEvent[]) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /**
   * Replaces the whole state. The records are copied unless `adopt` says they are the platform's to
   * keep (a seed built for it, at a size where a copy would double the start time).
   */
  load(state: { now: number; tenants: TenantData[] }, adopt = false): void {
    // Build everything first: a state that cannot be read leaves the current one as it was.
    const tenants = state.tenants.map((data) => new TenantState(adopt ? data : structuredClone(data)));
    this.version++;
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
    if (snapshot?.format !== 'lmskit-state' || snapshot.version !== 1 || typeof snapshot.now !== 'number') {
      throw new DomainError(
        'validation',
        'not an lmskit state snapshot (format lmskit-state, version 1)',
        {},
        undefined,
        'VALIDATION_ERROR',
      );
    }
    try {
      this.load({ now: snapshot.now, tenants: Object.values(snapshot.tenants) });
    } catch (error) {
      throw new DomainError(
        'validation',
        // The contract checks the snapshot's shape first; what still fails here is named by kind, not
        // by the runtime's own words, which would leak the mock's code into the API.
        `the snapshot cannot be loaded: a record does not have the shape GET /__admin/snapshot gives (${(error as Error).name})`,
        {},
        undefined,
        'VALIDATION_ERROR',
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
