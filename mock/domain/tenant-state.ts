// One tenant's state: the records of model.ts in maps, with the indexes and aggregates that keep
// reads independent of the tenant's size (statistics come from aggregates kept
// up to date on each write, not from a scan). Every change to users, assignments and courses goes
// through the methods here, so the indexes cannot drift from the records.
//
// Assignments, the most numerous records (5 M at the million-user scale), are kept as columns
// (assignment-table.ts) and the per-user aggregates in typed arrays (user-stats-table.ts): an
// assignment read here is a fresh object, so a change to one is made through `markStarted`,
// `markFinished` or `setProgress`, never by assigning to the object alone. Likewise a scale seed's
// users are made on each read (user-table.ts): a change to a user is made to the object `editUser`
// answers.

import { AssignmentTable } from './assignment-table.ts';
import { KeyIndex } from './key-index.ts';
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
import { UserStatsTable } from './user-stats-table.ts';
import { type MadeUsers, UserTable } from './user-table.ts';

export type { UserStats } from './user-stats-table.ts';

/** The largest id the contracts allow (ids, offsets and limits are int32) and a snapshot's counters may hold. */
export const INT32_MAX = 2_147_483_647;

/**
 * Where the mock stops handing out ids: once a counter of any tenant reaches it (a snapshot can put it
 * there), every write but a reset, a snapshot, fixtures and the clock is refused (Platform.execute), so
 * no id passes INT32_MAX. The 147 M ids between the two are more than any one command can take.
 */
export const LAST_ID_HANDED_OUT = 2_000_000_000;

/** docs/adr-0002: generation takes 10–30 s of virtual time by default. */
export const DEFAULT_AI_SETTINGS: AiSettings = {
  generationMinSeconds: 10,
  generationMaxSeconds: 30,
  failNextJobs: 0,
  failureMessage: 'The generator could not produce a course from this prompt.',
};

/**
 * Each collection of model.ts as the live state keeps it: a map by id, or a list for a log; the
 * assignments in their columnar table, which reads like a map (`size`, `get`, `values`).
 */
type Kept = {
  readonly [K in Exclude<CollectionName, 'assignments' | 'users'>]: (typeof COLLECTIONS)[K] extends 'log'
    ? TenantRecords[K][]
    : Map<TenantRecords[K]['id'], TenantRecords[K]>;
} & { readonly assignments: AssignmentTable; readonly users: UserTable };

/**
 * A tenant as a seed may hand it over: its assignments already in columns and its first users made
 * from their ids (seed/scale.ts builds millions of them without an object each). A snapshot never
 * has either.
 */
export interface SeededTenantData extends TenantData {
  assignmentTable?: AssignmentTable;
  madeUsers?: MadeUsers;
}

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
  // Keys to user ids in typed arrays, not Maps of a million strings (key-index.ts).
  private readonly usersByApiId = new KeyIndex((id) => this.users.get(id)?.apiId);
  private readonly usersByEmail = new KeyIndex((id) => this.users.get(id)?.email.toLowerCase());
  /** MCP keys by the hex of their SHA-256, for authentication by lookup (domain/mcp-keys.ts). */
  readonly keysByDigest = new Map<string, { key: McpKey; digest: Buffer }>();
  private readonly lastEventByType = new Map<string, PlatformEvent>();
  /** The users' lower-cased "name\nemail", chunked for substring search (user-search-index.ts). */
  readonly userSearch = new UserSearchIndex(
    () => this.users.values(),
    (id) => this.users.get(id) as User,
  );

  // Aggregates.
  readonly userStats = new UserStatsTable();
  /** Users who have not started any course, in creation order. */
  readonly usersWithoutActivity = this.userStats.without('started');
  /** Users who have not finished any course, in creation order. */
  readonly usersWithoutResults = this.userStats.without('finished');
  /** Courses nobody is assigned to, in creation order. */
  readonly unassignedCourses = new Set<number>();
  private leadersCache: number[] | null = null;
  /** How many times the leader ranking was computed; a test asserts reads reuse it. */
  leaderRankings = 0;

  constructor(data: SeededTenantData) {
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
    kept.assignments = data.assignmentTable ?? new AssignmentTable(data.assignments?.length);
    kept.users = new UserTable(data.madeUsers);
    const made = data.madeUsers?.count ?? 0;
    this.userStats.reserve(made + (data.users?.length ?? 0));
    for (let id = 1; id <= made; id++) this.userStats.add(id);
    this.usersByApiId.reserve(data.users?.length ?? 0);
    this.usersByEmail.reserve(data.users?.length ?? 0);
    // A state file written before a collection existed has no array for it.
    for (const name of COLLECTION_NAMES) for (const record of data[name] ?? []) this.load(name, record);
    if (data.assignmentTable) this.countAdoptedAssignments();
  }

  /** The aggregates of assignments handed over in columns, counted row by row without records. */
  private countAdoptedAssignments(): void {
    const table = this.assignments;
    for (let row = 0; row < table.size; row++) {
      const userId = table.userOf(row);
      this.unassignedCourses.delete(table.courseOf(row));
      this.userStats.countAssigned(userId);
      if (table.isStarted(row)) this.countStart(userId);
      const result = table.resultIfFinished(row);
      if (result !== null) this.countFinish(userId, result);
    }
  }

  /** Adds one record of a snapshot to its collection, through its loader when it has indexes. */
  private load<K extends CollectionName>(name: K, record: TenantRecords[K]): void {
    const loader = LOADERS[name];
    if (loader) loader(this, record);
    else if (COLLECTIONS[name] === 'log') (this[name] as TenantRecords[K][]).push(record);
    else (this[name] as Map<unknown, TenantRecords[K]>).set(record.id, record);
  }

  /**
   * A tenant with no records, licensed for MCP but at tier `none`, the seed's default (seed 000,
   * Tenant restrictions (licence)): a new tenant, the `empty` seed and fixtures start here.
   */
  static empty(id: string, name: string, siteApiKey: string): TenantState {
    return new TenantState({
      id,
      name,
      siteApiKey,
      mcpLicensed: true,
      mcpAccess: 'none',
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
    const id = (this.seq[kind] ?? 0) + 1;
    // Platform.execute refuses every write once a counter reaches LAST_ID_HANDED_OUT, far below this.
    if (id > INT32_MAX) throw new Error(`seq.${kind} of ${this.id} passed ${INT32_MAX}`);
    this.seq[kind] = id;
    return id;
  }

  /** The first counter at or past `limit`, if any: `user` for `seq.user`. */
  counterAtOrPast(limit: number): string | undefined {
    for (const [kind, last] of Object.entries(this.seq)) if (last >= limit) return kind;
    return undefined;
  }

  // Users.

  addUser(user: User): void {
    this.users.add(user);
    this.usersByApiId.set(user.apiId, user.id);
    this.usersByEmail.set(user.email.toLowerCase(), user.id);
    this.userSearch.added(user);
    this.userStats.add(user.id);
  }

  userByApiId(apiId: string): User | undefined {
    return this.userById(this.usersByApiId.get(apiId) ?? this.users.madeIdOf('apiId', apiId));
  }

  userByEmail(email: string): User | undefined {
    const key = email.toLowerCase();
    return this.userById(this.usersByEmail.get(key) ?? this.users.madeIdOf('email', key));
  }

  /** The user as the object a write changes, which every later read answers (user-table.ts). */
  editUser(id: number): User | undefined {
    return this.users.edit(id);
  }

  private userById(id: number | undefined): User | undefined {
    return id === undefined ? undefined : this.users.get(id);
  }

  setUserEmail(id: number, email: string): void {
    const user = this.editUser(id) as User;
    this.usersByEmail.delete(user.email.toLowerCase());
    user.email = email;
    this.usersByEmail.set(email.toLowerCase(), user.id);
    this.userSearch.changed(id);
  }

  setUserName(id: number, name: string): void {
    (this.editUser(id) as User).name = name;
    this.userSearch.changed(id);
  }

  // Courses.

  addCourse(course: Course): void {
    this.courses.set(course.id, course);
    if (!this.assignments.countOfCourse(course.id)) this.unassignedCourses.add(course.id);
  }

  // Assignments.

  addAssignment(a: Assignment): void {
    this.assignments.add(a);
    this.unassignedCourses.delete(a.courseId);
    this.userStats.countAssigned(a.userId);
    if (a.startedAt !== null) this.countStart(a.userId);
    if (a.finishedAt !== null) this.countFinish(a.userId, a.resultValue ?? 0);
  }

  assignment(userId: number, courseId: number): Assignment | undefined {
    return this.assignments.ofUserAndCourse(userId, courseId);
  }

  /** The user's assignments in creation order; with `courses`, only those to these courses. */
  assignmentsOfUser(userId: number, courses?: ReadonlySet<number>): Assignment[] {
    return this.assignments.ofUser(userId, courses);
  }

  assignmentsOfCourse(courseId: number): Assignment[] {
    return this.assignments.ofCourse(courseId);
  }

  assignmentCount(): number {
    return this.assignments.size;
  }

  /** How many assignments a course has, without building their records. */
  assignmentCountOfCourse(courseId: number): number {
    return this.assignments.countOfCourse(courseId);
  }

  markStarted(a: Assignment, at: number): void {
    if (a.startedAt !== null) return;
    a.startedAt = at;
    this.assignments.write(a);
    this.countStart(a.userId);
  }

  markFinished(a: Assignment, at: number, result: number): void {
    if (a.startedAt === null) this.markStarted(a, at);
    a.finishedAt = at;
    a.progressValue = 100;
    a.resultValue = result;
    this.assignments.write(a);
    this.countFinish(a.userId, result);
  }

  setProgress(a: Assignment, progress: number): void {
    a.progressValue = progress;
    this.assignments.write(a);
  }

  private countStart(userId: number): void {
    this.userStats.countStart(userId);
  }

  private countFinish(userId: number, result: number): void {
    if (this.userStats.countFinish(userId, result)) this.leadersCache = null;
  }

  /**
   * User ids ranked by completed courses, then average result (seed 001, /statistics `leaders`).
   * Computed once per change of any user's completions, then reused by every read.
   */
  rankedLeaders(): number[] {
    if (!this.leadersCache) {
      this.leaderRankings++;
      this.leadersCache = this.userStats.ranked();
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
