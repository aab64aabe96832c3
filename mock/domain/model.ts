// The platform's records as the mock stores them. Plain data: serialisable as is, so a snapshot is
// the state itself. Timestamps are Unix seconds of the virtual clock.
import type { components } from '../../generated/v1.ts';
import type { components as V2Components } from '../../generated/v2.ts';
import type { AllowedType } from '../../lib/file-types.ts';
import type { Role } from './roles.ts';

/** A two-letter ISO 639-1 code, as the v2 contract lists them (`LanguageCode`). */
export type LanguageCode = V2Components['schemas']['LanguageCode'];

/** Attribute types of seed 001: 1 text, 2 date, 3 single choice, 4 multiple choice, 5 user choice, 6 yes/no, 7 external link, 8 number. */
export type AttributeType = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
export const CHOICE_TYPES: readonly AttributeType[] = [3, 4];

export interface AttributeOption {
  id: number;
  position: number;
  value: string;
}

export interface AttributeDefinition {
  id: number;
  scope: 'user' | 'group';
  name: string;
  type: AttributeType;
  apiId: string;
  position: number;
  isRequired: boolean;
  isVisible: boolean;
  /** User attributes only. */
  isEditable: boolean;
  /** Options of choice types; null for the others. */
  extraData: AttributeOption[] | null;
}

export type AttributeValue = string | number | boolean | string[] | null;
/** A value as a request may send it (the contract's `UserAttributeValues`); `checkValues` refuses those that do not fit their attribute. */
export type AttributeInputValue = AttributeValue | (string | number)[];

export interface User {
  id: number;
  apiId: string;
  name: string;
  email: string;
  passwordHash: string;
  role: Role;
  /** One of the contract's languages (v1 `Language`); the contract refuses any other on the way in. */
  language: components['schemas']['Language'];
  timezone: string;
  occupation: string;
  location: string;
  bio: string;
  fromApi: boolean;
  isBanned: boolean;
  /** By attribute apiId. */
  attributes: Record<string, AttributeValue>;
  groupIds: number[];
  createdAt: number;
}

export interface Group {
  id: number;
  parentId: number | null;
  name: string;
  description: string;
  /** By attribute name (seed 001, Group: "custom group attributes keyed by attribute name"). */
  attributes: Record<string, AttributeValue>;
  memberIds: number[];
  /** Courses assigned to the group; new members get them too. */
  courseIds: number[];
  createdAt: number;
}

export interface LessonElement {
  id: number;
  type: 'lesson';
  title: string;
  content: string;
}

export interface QuestionElement {
  id: number;
  type: 'question';
  title: string;
  questionType: 'single' | 'multiple';
  options: { text: string; isCorrect: boolean }[];
}

export type CourseElement = LessonElement | QuestionElement;

export interface Course {
  id: number;
  name: string;
  annotation: string;
  description: string;
  isDraft: boolean;
  createdAt: number;
  updatedAt: number;
  publishedAt: number | null;
  ownerId: number;
  /** ISO 639-1 language of the content, when known (generated courses): the v2 contract's `LanguageCode`. */
  language?: LanguageCode;
  /** Users the course is shared with: they may edit it too. */
  sharedWith: number[];
  attachedFiles: { name: string; size: number; url: string; mime: string }[];
  settings: {
    sequential: boolean;
    hasCertificate: boolean;
    certificateValidDays: number | null;
    passingScore: number;
  };
  structure: { elements: CourseElement[]; transitions: { from: number; to: number }[] };
  /** Experts (reviewers of homework and classwork) by user id, with their workload. */
  experts: { userId: number; homeworks: number; classworks: number }[];
}

export interface CourseChain {
  id: number;
  name: string;
  ownerId: number;
  courseIds: number[];
}

export interface Assignment {
  id: number;
  userId: number;
  courseId: number;
  assignedAt: number;
  /** When the assignment starts (v1 `assignAt`, v2 `startAt`); null = at once. */
  startAt: number | null;
  deadlineAt: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  progressValue: number;
  resultValue: number | null;
}

export interface Certificate {
  id: number;
  userId: number;
  courseId: number;
  issuedAt: number;
  expiresAt: number | null;
}

export interface AuditEntry {
  id: number;
  createdAt: number;
  /** The acting user, or null for the site API key (v1) and the admin API. */
  authorId: number | null;
  action: string;
  target: { type: string; id: string };
  details: Record<string, unknown>;
}

/** The four events the platform sends (seed 001, Events), by their dot-notation names. */
export type EventType = 'user.created' | 'group.user.created' | 'course.finished' | 'course.published';

/** A webhook event as recorded (seed 001, "Events"); `type` is the dot-notation name. */
export interface PlatformEvent {
  id: number;
  type: EventType;
  occuredAt: number;
  body: Record<string, unknown>;
}

export interface McpKey {
  id: string;
  userId: number;
  prefix: string;
  /** SHA-256 of the key, hex. The key itself is never stored (seed 000, "MCP key"). */
  hash: string;
  scopes: ('read' | 'write')[];
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface WebhookReceiver {
  id: string;
  url: string;
  secret: string;
  events: EventType[] | null;
  createdAt: number;
}

export interface WebhookDelivery {
  id: string;
  receiverId: string;
  eventId: number;
  eventType: EventType;
  /** `dropped`: pushed out of a full queue (domain/webhooks.ts), never attempted again. */
  state: 'pending' | 'delivered' | 'failed' | 'dropped';
  attempts: { at: string; status: number | null; error: string | null }[];
  nextAttemptAt: string | null;
  /** The delivery this one sends again (domain/webhooks.ts, `redeliver`); absent when the event queued it. */
  redeliveryOf?: string;
}

export type McpAccess = 'none' | 'read' | 'full';

/** Calls of the AI tools on one UTC day of the virtual clock (seed 000, "Limits"). */
export interface AiUsage {
  day: number;
  perKey: Record<string, number>;
  tenant: number;
}

/** How the mock's course generator behaves; changed through the admin API. */
export interface AiSettings {
  generationMinSeconds: number;
  generationMaxSeconds: number;
  /** The next this-many jobs fail, with `failureMessage`. */
  failNextJobs: number;
  failureMessage: string;
}

export interface UploadedFile {
  id: string;
  filename: string;
  /** Judged by content (lib/file-types.ts). */
  mimeType: AllowedType;
  size: number;
  chunks: string[];
  processed: boolean;
}

/** A `sessionId` groups uploaded files into one generation context (seed 000, "Upload session"). */
export interface UploadSession {
  id: string;
  createdAt: number;
  files: UploadedFile[];
}

export interface GenerationJob {
  id: string;
  status: 'queued' | 'completed' | 'failed';
  createdAt: number;
  /** Virtual time at which the job reaches its final state. */
  completesAt: number;
  userId: number;
  prompt: string;
  sessionId: string | null;
  options: { moduleCount: number; language?: LanguageCode; title?: string };
  /** Set when the job was made to fail through the admin API. */
  failWith: string | null;
  result: { courseId: number } | null;
  error: { message: string } | null;
}

/**
 * A tenant's collections of records, declared once: the snapshot's arrays (`TenantData`), the live
 * state's maps and lists (`TenantState`) and an empty tenant are all derived from this.
 */
export interface TenantRecords {
  users: User;
  groups: Group;
  attributes: AttributeDefinition;
  courses: Course;
  chains: CourseChain;
  assignments: Assignment;
  certificates: Certificate;
  audit: AuditEntry;
  events: PlatformEvent;
  mcpKeys: McpKey;
  receivers: WebhookReceiver;
  deliveries: WebhookDelivery;
  uploads: UploadSession;
  jobs: GenerationJob;
}

/**
 * How the live state keeps each collection: `byId` in a map by the record's id, `log` as an
 * append-only list in the order of writing. Listed in the order a tenant is loaded: users and
 * courses before the assignments that count against them.
 */
export const COLLECTIONS = {
  users: 'byId',
  groups: 'byId',
  attributes: 'byId',
  courses: 'byId',
  chains: 'byId',
  assignments: 'byId',
  certificates: 'log',
  audit: 'log',
  events: 'log',
  mcpKeys: 'byId',
  receivers: 'byId',
  deliveries: 'byId',
  uploads: 'byId',
  jobs: 'byId',
} as const satisfies Record<keyof TenantRecords, 'byId' | 'log'>;

export type CollectionName = keyof TenantRecords;
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];

/** Every collection as the plain arrays of a snapshot. */
export type TenantCollections = { [K in CollectionName]: TenantRecords[K][] };

/** A tenant with no records at all. */
export const noRecords = (): TenantCollections =>
  Object.fromEntries(COLLECTION_NAMES.map((name) => [name, []])) as unknown as TenantCollections;

/** A tenant as a snapshot holds it: its settings and its collections as arrays. */
export interface TenantData extends TenantCollections {
  id: string;
  name: string;
  siteApiKey: string;
  mcpLicensed: boolean;
  mcpAccess: McpAccess;
  mcpAiAccess: boolean;
  aiUsage: AiUsage;
  ai: AiSettings;
  /** Last id handed out, per kind of record. */
  seq: Record<string, number>;
}
