// The scale seed: `--seed-scale users=100000,courses=1000,assignments=500000`. Records are
// made directly (not through the domain's commands) so that half a million assignments build in
// seconds; every value follows from its index, so the same sizes always give the same platform.
// The assignments go straight into the columns the tenant keeps them in (domain/assignment-table.ts),
// not into an object each: five million of those took seconds and gigabytes before the first answer.
// The users are not built at all: `madeUsers` answers user n from n alone (domain/user-table.ts).
import { AssignmentTable } from '../domain/assignment-table.ts';
import { DAY } from '../domain/clock.ts';
import { type Assignment, type Course, type Group, noRecords } from '../domain/model.ts';
import type { Role } from '../domain/roles.ts';
import { DEFAULT_AI_SETTINGS, type SeededTenantData } from '../domain/tenant-state.ts';
import type { MadeUsers } from '../domain/user-table.ts';
import { hashPassword } from '../domain/users.ts';
import { DEMO_SITE_API_KEY, DEMO_TENANT, demoKeyRecords, START } from './demo.ts';

export interface ScaleOptions {
  users: number;
  courses: number;
  assignments: number;
}

/** `users=100000,courses=1000,assignments=500000` → sizes (each at least 1; assignments at most users × courses). */
export function parseScale(spec: string): ScaleOptions {
  const sizes: ScaleOptions = { users: 1000, courses: 50, assignments: 5000 };
  for (const part of spec.split(',').filter(Boolean)) {
    const [key, value] = part.split('=');
    const n = Number(value);
    if (!key || !(key in sizes) || !Number.isInteger(n) || n < 1) {
      throw new Error(
        `--seed-scale: "${part}" is not one of users=N, courses=N, assignments=N with N a positive integer`,
      );
    }
    sizes[key as keyof ScaleOptions] = n;
  }
  sizes.assignments = Math.min(sizes.assignments, sizes.users * sizes.courses);
  return sizes;
}

/**
 * What one record of the scale seed costs, measured by building the seed's tenant between two full
 * collections (`node --expose-gc`, Node 20; heap and array buffers from `process.memoryUsage()`):
 * a million users took 9 MB of heap and 33 MB of typed arrays, ten thousand courses 11 MB of heap,
 * five million assignments 240 MB of typed arrays (bench/RESULTS.md has the same 1 000 000-user seed
 * at 358 MB resident). Rounded up, so that the estimate errs on the side of refusing.
 */
const COST = {
  /** A user's place in its group's member list, with the list's slack. */
  userHeap: 12,
  /** A user's counts (user-stats-table.ts), index slot and edit flag, and its first and last assignment. */
  userColumns: 41,
  /** A course record with its two elements. */
  courseHeap: 1_200,
  /** One row of the assignment table (assignment-table.ts). */
  assignmentColumns: 48,
  /** An id past the typed arrays' reach, kept in a Map instead (int-by-id.ts): about 34 bytes measured. */
  mapEntry: 40,
  /** The mock itself, the demo's keys and the contracts: what runs besides the seed. */
  base: 64 * 2 ** 20,
};
/** Ids below this are kept in typed arrays; past it each takes a Map entry (int-by-id.ts). */
const DENSE_IDS = 2 ** 24;
/** A Map holds at most 2^24 entries (V8), so an index keeps at most this many ids in all. */
export const MAX_SCALE_USERS = DENSE_IDS - 1 + 2 ** 24;
/** Assignment ids are 32-bit integers (assignment-table.ts). */
export const MAX_SCALE_ASSIGNMENTS = 2 ** 31 - 1;
/** The share of a memory limit the seed may fill: the rest is for collecting garbage and serving. */
const SHARE = 0.75;

export interface MemoryLimits {
  /** V8's heap limit (`v8.getHeapStatistics().heap_size_limit`). */
  heapBytes: number;
  /** The memory the process can have: the machine's, or less under a cgroup limit. */
  totalBytes: number;
}

/** The bytes the seed of these sizes takes: in V8's heap, and in all (heap and typed arrays). */
export function scaleBytes(o: ScaleOptions): { heap: number; total: number } {
  const past = (n: number) => Math.max(0, n - (DENSE_IDS - 1));
  const mapEntries = past(o.users) + 2 * past(Math.min(o.users, o.assignments)) + past(o.courses);
  const heap = COST.base + o.users * COST.userHeap + o.courses * COST.courseHeap + mapEntries * COST.mapEntry;
  return { heap, total: heap + o.users * COST.userColumns + o.assignments * COST.assignmentColumns };
}

const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GB`;

/**
 * Why a seed of these sizes cannot be built within `limits`, as the one sentence `lmskit mock` ends
 * with, or null when it fits. Checked before anything is built: past the heap limit V8 spent half a
 * minute collecting before it gave up with a RangeError or a fatal error.
 */
export function scaleProblem(spec: string, o: ScaleOptions, limits: MemoryLimits): string | null {
  if (o.users > MAX_SCALE_USERS || o.courses > MAX_SCALE_USERS)
    return `--seed-scale ${spec}: the mock cannot index more than ${MAX_SCALE_USERS} users or courses (ids below 2^24 in typed arrays, at most 2^24 more in a Map).`;
  if (o.assignments > MAX_SCALE_ASSIGNMENTS)
    return `--seed-scale ${spec}: the mock cannot hold more than ${MAX_SCALE_ASSIGNMENTS} assignments (their ids are 32-bit integers).`;
  const { heap, total } = scaleBytes(o);
  if (heap > SHARE * limits.heapBytes)
    return `--seed-scale ${spec} does not fit in memory: its records need about ${gb(heap)} of JavaScript heap, and V8 allows this process ${gb(limits.heapBytes)}, of which the seed may fill three quarters; ask for fewer courses or users, or give Node a larger heap (NODE_OPTIONS=--max-old-space-size=<MB>).`;
  if (total > SHARE * limits.totalBytes)
    return `--seed-scale ${spec} does not fit in memory: it needs about ${gb(total)}, and this machine has ${gb(limits.totalBytes)} for this process, of which the seed may fill three quarters; ask for fewer assignments or users.`;
  return null;
}

const FIRST = [
  'Ada',
  'Ben',
  'Chloé',
  'Dmitri',
  'Elif',
  'Farid',
  'Greta',
  'Hiro',
  'Ines',
  'Jonas',
  'Kofi',
  'Lena',
  'Mateo',
  'Noor',
  'Olga',
  'Pavel',
  'Quinn',
  'Rosa',
  'Sven',
  'Tariq',
];
const LAST = [
  'Andersen',
  'Baptiste',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'García',
  'Hoffmann',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'Lindqvist',
  'Moreau',
  'Nowak',
  'Okafor',
  'Petrov',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Weber',
];
const ROLE_OF = (i: number): Role =>
  i === 1 ? 'admin' : i <= 5 ? 'manager' : i <= 25 ? 'author' : 'learner';

/**
 * The seed's users, made from their ids (domain/user-table.ts): user i has apiId `u<i>`, one of 400
 * names, an e-mail ending in `<i>@scale.example`, the role of ROLE_OF and membership of one of the 50
 * groups. Nothing per user is kept; the strings they share are made once (strings are immutable),
 * as are the 50 group lists and one empty attribute set, all frozen.
 */
function madeUsers(count: number, groups: Group[]): MadeUsers {
  const password = hashPassword('scale-password');
  const names = LAST.map((last) => FIRST.map((first) => `${first} ${last}`));
  const mailboxes = LAST.map((last) => FIRST.map((first) => `${first}.${last}`.toLowerCase()));
  const groupIdsOf = groups.map((g) => Object.freeze([g.id]) as number[]);
  const noAttributes = Object.freeze({});
  const idIn = (match: RegExpExecArray | null) => (match ? Number(match[1]) : undefined);
  return {
    count,
    make: (i) => {
      const f = i % FIRST.length;
      const l = Math.floor(i / FIRST.length) % LAST.length;
      return Object.freeze({
        id: i,
        apiId: `u${i}`,
        name: names[l]?.[f] as string,
        email: `${mailboxes[l]?.[f]}${i}@scale.example`,
        passwordHash: password,
        role: ROLE_OF(i),
        language: 'en',
        timezone: 'UTC',
        occupation: '',
        location: '',
        bio: '',
        fromApi: true,
        isBanned: false,
        attributes: noAttributes,
        groupIds: groupIdsOf[i % groups.length] as number[],
        createdAt: START - 60 * DAY,
      });
    },
    idOfApiId: (apiId) => idIn(/^u([1-9]\d{0,9})$/.exec(apiId)),
    idOfEmail: (email) => idIn(/[^\d]([1-9]\d{0,9})@scale\.example$/.exec(email)),
  };
}

export function scaleTenant(o: ScaleOptions): SeededTenantData {
  const groups: Group[] = Array.from({ length: 50 }, (_, g) => ({
    id: g + 1,
    parentId: g === 0 ? null : 1,
    name: `Team ${g + 1}`,
    description: '',
    attributes: {},
    memberIds: [],
    courseIds: [],
    createdAt: START - 60 * DAY,
  }));
  for (let i = 1; i <= o.users; i++) (groups[i % groups.length] as Group).memberIds.push(i);
  const courses: Course[] = Array.from({ length: o.courses }, (_, c) => ({
    id: c + 1,
    name: `Course ${c + 1}`,
    annotation: `Scale course ${c + 1}.`,
    description: `Course ${c + 1} of the scale seed.`,
    isDraft: c % 20 === 19,
    createdAt: START - 50 * DAY,
    updatedAt: START - 50 * DAY,
    publishedAt: c % 20 === 19 ? null : START - 50 * DAY,
    ownerId: 6 + (c % 20),
    sharedWith: [],
    attachedFiles: [],
    settings: { sequential: false, hasCertificate: false, certificateValidDays: null, passingScore: 60 },
    structure: {
      elements: [
        { id: 2 * c + 1, type: 'lesson', title: `Course ${c + 1}: lesson`, content: 'Content.' },
        {
          id: 2 * c + 2,
          type: 'question',
          title: `Course ${c + 1}: check`,
          questionType: 'single',
          options: [
            { text: 'Yes', isCorrect: true },
            { text: 'No', isCorrect: false },
          ],
        },
      ],
      transitions: [{ from: 2 * c + 1, to: 2 * c + 2 }],
    },
    experts: [],
  }));

  // Assignments spread over users; each user's courses are distinct (a stride that is coprime to the
  // course count where possible). States cycle: not started, in progress, finished, overdue. One
  // scratch record is filled per row and copied into the table.
  const assignments = new AssignmentTable(o.assignments);
  const row: Assignment = {
    id: 0,
    userId: 0,
    courseId: 0,
    assignedAt: 0,
    startAt: null,
    deadlineAt: null,
    startedAt: null,
    finishedAt: null,
    progressValue: 0,
    resultValue: null,
  };
  const perUser = Math.ceil(o.assignments / o.users);
  const stride = [197, 191, 181, 7, 1].find((s) => o.courses % s !== 0) ?? 1;
  for (let u = 0; u < o.users && assignments.size < o.assignments; u++) {
    for (let j = 0; j < perUser && assignments.size < o.assignments; j++) {
      const id = assignments.size + 1;
      const state = id % 10;
      const assignedAt = START - 40 * DAY + (id % 1000) * 60;
      const started = state >= 4 ? assignedAt + DAY : null;
      const finished = state === 7 || state === 8 ? assignedAt + 5 * DAY : null;
      row.id = id;
      row.userId = u + 1;
      row.courseId = ((u * 13 + j * stride) % o.courses) + 1;
      row.assignedAt = assignedAt;
      row.deadlineAt = state === 9 ? START - DAY : state % 3 === 0 ? START + 30 * DAY : null;
      row.startedAt = started;
      row.finishedAt = finished;
      row.progressValue = finished ? 100 : started ? 10 * (id % 9) : 0;
      row.resultValue = finished ? 50 + (id % 51) : null;
      assignments.append(row);
    }
  }

  return {
    id: DEMO_TENANT,
    name: 'Scale Academy',
    siteApiKey: DEMO_SITE_API_KEY,
    mcpLicensed: true,
    // The seed's default (seed 000, Tenant restrictions (licence)); a run that uses the MCP keys says
    // so with `PATCH /__admin/tenants/demo {"mcpAccess": "full"}`, as the bench does.
    mcpAccess: 'none',
    mcpAiAccess: true,
    ...noRecords(),
    madeUsers: madeUsers(o.users, groups),
    groups,
    courses,
    assignmentTable: assignments,
    mcpKeys: demoKeyRecords(() => 1),
    aiUsage: { day: 0, perKey: {}, tenant: 0 },
    ai: DEFAULT_AI_SETTINGS,
    seq: {
      user: o.users,
      group: groups.length,
      course: o.courses,
      element: 2 * o.courses,
      assignment: assignments.size,
    },
  };
}
