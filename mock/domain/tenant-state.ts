// One tenant's state: the records of model.ts in maps, with the indexes and aggregates that keep
// reads independent of the tenant's size (statistics come from aggregates kept
// up to date on each write, not from a scan). Every change to users, assignments and courses goes
// through the methods here, so the indexes cannot drift from the records.
import {
  type AiSettings,
  type AiUsage,
  type Assignment,
  COLLECTION_NAMES,
  COLLECTIONS,
  type CollectionName,
  type Course,
  type McpAccess,
  type McpKey,
  noRecords,
  type PlatformEvent,
  type TenantCollections,
  type TenantData,
  type TenantRecords,
  type User,
} from './model.ts';
import { UserSearchIndex } from './user-search-index.ts';

export interface UserStats {
  assigned: number;
  started: number;
  finished: number;
  resultSum: number;
}

/** docs/adr-0002: generation takes 10–30 s of virtual time by default. */
export const DEFAULT_AI_SETTINGS: AiSettings = {
  generationMinSeconds: 10,
  generationMaxSeconds: 30,
  failNextJobs: 0,
  failureMessage: 'The generator could not produce a course from this prompt.',
};

/** The inner map of a two-level index, created on first use. */
function indexUnder<V>(index: Map<number, Map<number, V>>, key: number): Map<number, V> {
  let inner = index.get(key);
  if (!inner) {
    inner = new Map();
    index.set(key, inner);
  }
  return inner;
}

/** Each collection of model.ts as the live state keeps it: a map by id, or a list for a log. */
type Kept = {
  readonly [K in CollectionName]: (typeof COLLECTIONS)[K] extends 'log'
    ? TenantRecords[K][]
    : Map<TenantRecords[K]['id'], TenantRecords[K]>;
};

/** Collections with indexes or aggregates of their own are loaded through their `add` method. */
const LOADERS: { [K in CollectionName]?: (state: TenantState, record: TenantRecords[K]) => void } = {
  users: (state, user) => state.addUser(user),
  courses: (state, course) => state.addCourse(course),
  assignments: (state, assignment) => state.addAssignment(assignment),
  events: (state, event) => state.addEvent(event),
  mcpKeys: (state, key) => state.addMcpKey(key),
};

// The collections' fields come from `Kept`, derived from model.ts, so they are declared only there;
// the constructor creates every one of them.
export interface TenantState extends Kept {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the merged interface only declares the collections, which the constructor assigns.
export class TenantState {
  id: string;
  name: string;
  siteApiKey: string;
  mcpLicensed: boolean;
  mcpAccess: McpAccess;
  mcpAiAccess: boolean;
  seq: Record<string, number>;
  aiUsage: AiUsage;
  ai: AiSettings;

  // Indexes.
  private readonly usersByApiId = new Map<string, User>();
  private readonly usersByEmail = new Map<string, User>();
  private readonly assignmentsByUser = new Map<number, Map<number, Assignment>>();
  private readonly assignmentsByCourse = new Map<number, Map<number, Assignment>>();
  /** MCP keys by the hex of their SHA-256, for authentication by lookup (domain/mcp-keys.ts). */
  readonly keysByDigest = new Map<string, { key: McpKey; digest: Buffer }>();
  private readonly lastEventByType = new Map<string, PlatformEvent>();
  /** The users' lower-cased "name\nemail", chunked for substring search (user-search-index.ts). */
  readonly userSearch = new UserSearchIndex(() => this.users.values());

  // Aggregates.
  readonly userStats = new Map<number, UserStats>();
  /** Users who have not started any course, in creation order. */
  readonly usersWithoutActivity = new Set<number>();
  /** Users who have not finished any course, in creation order. */
  readonly usersWithoutResults = new Set<number>();
  /** Courses nobody is assigned to, in creation order. */
  readonly unassignedCourses = new Set<number>();
  private leadersCache: number[] | null = null;
  /** How many times the leader ranking was computed; a test asserts reads reuse it. */
  leaderRankings = 0;

  constructor(data: TenantData) {
    this.id = data.id;
    this.name = data.name;
    this.siteApiKey = data.siteApiKey;
    this.mcpLicensed = data.mcpLicensed;
    this.mcpAccess = data.mcpAccess;
    this.mcpAiAccess = data.mcpAiAccess;
    this.seq = { ...data.seq };
    this.aiUsage = data.aiUsage ?? { day: 0, perKey: {}, tenant: 0 };
    this.ai = { ...DEFAULT_AI_SETTINGS, ...data.ai };
    const kept = this as unknown as Record<CollectionName, unknown>;
    for (const name of COLLECTION_NAMES) kept[name] = COLLECTIONS[name] === 'log' ? [] : new Map();
    // A state file written before a collection existed has no array for it.
    for (const name of COLLECTION_NAMES) for (const record of data[name] ?? []) this.load(name, record);
  }

  /** Adds one record of a snapshot to its collection, through its loader when it has indexes. */
  private load<K extends CollectionName>(name: K, record: TenantRecords[K]): void {
    const loader = LOADERS[name];
    if (loader) loader(this, record);
    else if (COLLECTIONS[name] === 'log') (this[name] as TenantRecords[K][]).push(record);
    else (this[name] as Map<unknown, TenantRecords[K]>).set(record.id, record);
  }

  static empty(id: string, name: string, siteApiKey: string): TenantState {
    return new TenantState({
      id,
      name,
      siteApiKey,
      mcpLicensed: true,
      mcpAccess: 'full',
      mcpAiAccess: true,
      ...noRecords(),
      aiUsage: { day: 0, perKey: {}, tenant: 0 },
      ai: DEFAULT_AI_SETTINGS,
      seq: {},
    });
  }

  toData(): TenantData {
    return {
      id: this.id,
      name: this.name,
      siteApiKey: this.siteApiKey,
      mcpLicensed: this.mcpLicensed,
      mcpAccess: this.mcpAccess,
      mcpAiAccess: this.mcpAiAccess,
      ...this.collections(),
      aiUsage: this.aiUsage,
      ai: this.ai,
      seq: this.seq,
    };
  }

  /** Every collection as the plain arrays of a snapshot. */
  private collections(): TenantCollections {
    return Object.fromEntries(
      COLLECTION_NAMES.map((name) => {
        const kept = this[name];
        return [name, Array.isArray(kept) ? kept : [...kept.values()]];
      }),
    ) as unknown as TenantCollections;
  }

  nextId(kind: string): number {
    this.seq[kind] = (this.seq[kind] ?? 0) + 1;
    return this.seq[kind];
  }

  // Users.

  addUser(user: User): void {
    this.users.set(user.id, user);
    this.usersByApiId.set(user.apiId, user);
    this.usersByEmail.set(user.email.toLowerCase(), user);
    this.userSearch.added(user);
    const stats = { assigned: 0, started: 0, finished: 0, resultSum: 0 };
    this.userStats.set(user.id, stats);
    this.usersWithoutActivity.add(user.id);
    this.usersWithoutResults.add(user.id);
  }

  userByApiId(apiId: string): User | undefined {
    return this.usersByApiId.get(apiId);
  }

  userByEmail(email: string): User | undefined {
    return this.usersByEmail.get(email.toLowerCase());
  }

  setUserEmail(user: User, email: string): void {
    this.usersByEmail.delete(user.email.toLowerCase());
    user.email = email;
    this.usersByEmail.set(email.toLowerCase(), user);
    this.userSearch.changed();
  }

  setUserName(user: User, name: string): void {
    user.name = name;
    this.userSearch.changed();
  }

  // Courses.

  addCourse(course: Course): void {
    this.courses.set(course.id, course);
    if (!this.assignmentsByCourse.get(course.id)?.size) this.unassignedCourses.add(course.id);
  }

  // Assignments.

  addAssignment(a: Assignment): void {
    this.assignments.set(a.id, a);
    indexUnder(this.assignmentsByUser, a.userId).set(a.courseId, a);
    indexUnder(this.assignmentsByCourse, a.courseId).set(a.userId, a);
    this.unassignedCourses.delete(a.courseId);
    const stats = this.userStats.get(a.userId);
    if (stats) stats.assigned++;
    if (a.startedAt !== null) this.countStart(a.userId);
    if (a.finishedAt !== null) this.countFinish(a.userId, a.resultValue ?? 0);
  }

  assignment(userId: number, courseId: number): Assignment | undefined {
    return this.assignmentsByUser.get(userId)?.get(courseId);
  }

  assignmentsOfUser(userId: number): Assignment[] {
    return [...(this.assignmentsByUser.get(userId)?.values() ?? [])];
  }

  assignmentsOfCourse(courseId: number): Assignment[] {
    return [...(this.assignmentsByCourse.get(courseId)?.values() ?? [])];
  }

  /** Every assignment in the order they were made (by id), read lazily: a page stops early. */
  allAssignments(): Iterable<Assignment> {
    return this.assignments.values();
  }

  assignmentCount(): number {
    return this.assignments.size;
  }

  markStarted(a: Assignment, at: number): void {
    if (a.startedAt !== null) return;
    a.startedAt = at;
    this.countStart(a.userId);
  }

  markFinished(a: Assignment, at: number, result: number): void {
    if (a.startedAt === null) this.markStarted(a, at);
    a.finishedAt = at;
    a.progressValue = 100;
    a.resultValue = result;
    this.countFinish(a.userId, result);
  }

  private countStart(userId: number): void {
    const stats = this.userStats.get(userId);
    if (!stats) return;
    stats.started++;
    this.usersWithoutActivity.delete(userId);
  }

  private countFinish(userId: number, result: number): void {
    const stats = this.userStats.get(userId);
    if (!stats) return;
    stats.finished++;
    stats.resultSum += result;
    this.usersWithoutResults.delete(userId);
    this.leadersCache = null;
  }

  /**
   * User ids ranked by completed courses, then average result (seed 001, /statistics `leaders`).
   * Computed once per change of any user's completions, then reused by every read.
   */
  rankedLeaders(): number[] {
    if (!this.leadersCache) {
      this.leaderRankings++;
      const finishers = [...this.userStats.entries()].filter(([, s]) => s.finished > 0);
      finishers.sort(
        ([idA, a], [idB, b]) =>
          b.finished - a.finished || b.resultSum / b.finished - a.resultSum / a.finished || idA - idB,
      );
      this.leadersCache = finishers.map(([id]) => id);
    }
    return this.leadersCache;
  }

  // MCP keys.

  addMcpKey(key: McpKey): void {
    this.mcpKeys.set(key.id, key);
    const digest = Buffer.from(key.hash, 'hex');
    this.keysByDigest.set(digest.toString('hex'), { key, digest });
  }

  // Events.

  addEvent(event: PlatformEvent): void {
    this.events.push(event);
    this.lastEventByType.set(event.type, event);
  }

  lastEvent(type: string): PlatformEvent | undefined {
    return this.lastEventByType.get(type);
  }

  /** Events are kept in the order of their ids, so one is found by bisection. */
  eventById(id: number): PlatformEvent | undefined {
    let low = 0;
    let high = this.events.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const event = this.events[mid] as PlatformEvent;
      if (event.id === id) return event;
      if (event.id < id) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }
}
