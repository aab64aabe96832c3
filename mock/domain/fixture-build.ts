// The platform state of fixtures (docs/mock.md, Fixtures) as `prepareFixture` (../seed/fixtures.ts)
// leaves them: passwords and keys as hashes, references resolved, the run's AI settings applied. It is
// what the `loadFixtures` command runs, at start and on replay alike, so it lives in the domain, which
// imports nothing of the seeds; the checks before it and the preparation stay with the seeds. Built
// through the domain's own rules — createUser, createGroup, assign, finishCourse, createMcpKey … — so
// the state is one the platform could reach, with its events and audit entries, and the same fixtures
// give the same ids and timestamps. Every problem names the entry and the field.
import type { components } from '../../generated/admin.ts';
import { updateAiSettings } from './ai.ts';
import { assign, assignToGroup, finishCourse, setProgress } from './assignments.ts';
import { upsertAttributes } from './attributes.ts';
import { SITE_KEY } from './audit.ts';
import { DAY, toIso } from './clock.ts';
import { structure } from './course-structure.ts';
import { publishCourse } from './courses.ts';
import { DomainError, invalid } from './errors.ts';
import { addMember, createGroup } from './groups.ts';
import { createMcpKey, revokeMcpKey } from './mcp-keys.ts';
import type { AiSettings, AttributeType, Course, TenantData } from './model.ts';
import { TenantState } from './tenant-state.ts';
import { banUser, createUser, userById } from './users.ts';

type FixtureTenant = components['schemas']['FixtureTenant'];
type FixtureUser = components['schemas']['FixtureUser'];
type FixtureAssignment = components['schemas']['FixtureAssignment'];
type FixtureMcpKey = components['schemas']['FixtureMcpKey'];

/** A user as the command carries it: the password only as its hash. */
export interface PreparedUser extends Omit<FixtureUser, 'password'> {
  passwordHash: string;
}
/** An assignment with its course resolved to an id and its deadline in Unix seconds. */
export interface PreparedAssignment extends Omit<FixtureAssignment, 'course' | 'deadline'> {
  course: number;
  deadline?: number;
}
/** A key as the command carries it: its hash and prefix, never its text. */
export interface PreparedKey extends Omit<FixtureMcpKey, 'key' | 'id'> {
  id: string;
  prefix: string;
  hash: string;
}
export interface PreparedTenant
  extends Omit<FixtureTenant, 'siteApiKey' | 'ai' | 'users' | 'assignments' | 'mcpKeys'> {
  siteApiKey: string;
  /** The AI settings to apply: the run's (startMock's `ai`, `--ai-seconds`), then the tenant's own. */
  ai: Partial<AiSettings>;
  users: PreparedUser[];
  assignments: PreparedAssignment[];
  mcpKeys: PreparedKey[];
}
/** What the `loadFixtures` command is given and logs: nothing secret, nothing of the run's settings. */
export interface PreparedFixture {
  now: number;
  tenants: PreparedTenant[];
}

/**
 * Runs a domain call for the entry at `where`; a rule it breaks becomes a problem named by the entry
 * and the field the domain names (`tenants[0].users[1].timezone: …`).
 */
function within<T>(where: string, action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const fields = Object.entries(error.fields);
    throw invalid(
      fields.length
        ? fields.map(([field, messages]) => `${where}.${field}: ${messages.join(', ')}`).join('; ')
        : `${where}: ${error.message}`,
    );
  }
}

/** Records a tenant's build makes at most, each a minute apart: how far before `now` it starts. */
const stepsOf = (t: PreparedTenant) =>
  1 +
  t.users.length * 2 +
  (t.groups ?? []).reduce((n, g) => n + 1 + (g.members?.length ?? 0), 0) +
  (t.courses?.length ?? 0) * 2 +
  t.assignments.length * 2 +
  t.mcpKeys.length * 2;

/**
 * Builds the platform state of prepared fixtures; deterministic. Records are made one minute apart
 * and the last a day before `now` and before the earliest deadline, so nothing happens after the
 * clock's start or after a deadline it was given for.
 */
export function buildFixture(fixture: PreparedFixture): { now: number; tenants: TenantData[] } {
  let earliest = fixture.now;
  for (const t of fixture.tenants)
    for (const a of t.assignments) if (a.deadline !== undefined) earliest = Math.min(earliest, a.deadline);
  const last = earliest - DAY;
  const start = last - 60 * Math.max(...fixture.tenants.map(stepsOf));
  return {
    now: fixture.now,
    tenants: fixture.tenants.map((tenant, i) => buildTenant(tenant, `tenants[${i}]`, start)),
  };
}

function buildTenant(p: PreparedTenant, path: string, start: number): TenantData {
  const t = TenantState.empty(p.id, p.name ?? p.id, p.siteApiKey);
  t.mcpLicensed = p.mcpLicensed ?? true;
  t.mcpAccess = p.mcpAccess ?? t.mcpAccess; // TenantState.empty's `none`, the seed's default
  t.mcpAiAccess = p.mcpAiAccess ?? true;
  within(`${path}.ai`, () => updateAiSettings(t, p.ai));
  let at = start;
  const tick = () => (at += 60);

  const attributes = p.userAttributes ?? [];
  if (attributes.length)
    within(`${path}.userAttributes`, () =>
      upsertAttributes(
        t,
        'user',
        attributes.map((a, i) => ({
          name: a.name ?? a.apiId,
          type: a.type as AttributeType,
          apiId: a.apiId,
          position: i + 1,
          isRequired: a.required ?? false,
          isVisible: true,
          isEditable: true,
          extraData: a.options?.map((value, j) => ({ position: j + 1, value })) ?? null,
        })),
      ),
    );

  const userIds = new Map<string, number>();
  const userId = (apiId: string) => userIds.get(apiId) ?? 0;
  p.users.forEach((u, i) => {
    const user = within(`${path}.users[${i}]`, () =>
      createUser(
        t,
        SITE_KEY,
        {
          id: u.id,
          name: u.name,
          email: u.email,
          passwordHash: u.passwordHash,
          roleAlias: u.role,
          ...(u.occupation !== undefined ? { occupation: u.occupation } : {}),
          ...(u.location !== undefined ? { location: u.location } : {}),
          ...(u.timezone !== undefined ? { timezone: u.timezone } : {}),
          ...(u.attributes !== undefined ? { attributes: u.attributes } : {}),
        },
        tick(),
      ),
    );
    userIds.set(u.id, user.id);
  });

  const groupIds = new Map<string, number>();
  (p.groups ?? []).forEach((g, i) => {
    const group = within(`${path}.groups[${i}]`, () =>
      createGroup(
        t,
        SITE_KEY,
        {
          name: g.name,
          parentId: g.parent === undefined ? null : (groupIds.get(g.parent) ?? null),
          ...(g.description !== undefined ? { description: g.description } : {}),
        },
        tick(),
      ),
    );
    groupIds.set(g.name, group.id);
    for (const member of g.members ?? []) addMember(t, group.id, userId(member), tick());
  });

  // The owner a course without one gets: the first admin, else the first author, else the first user.
  const byRole = (role: string) => p.users.find((u) => u.role === role)?.id;
  const defaultOwner = byRole('admin') ?? byRole('author') ?? p.users[0]?.id ?? '';
  for (const c of p.courses ?? []) {
    const created = tick();
    const course: Course = {
      id: t.nextId('course'),
      name: c.name,
      annotation: c.annotation ?? `A short course on ${c.name.toLowerCase()}.`,
      description: c.description ?? '',
      isDraft: true,
      createdAt: created,
      updatedAt: created,
      publishedAt: null,
      ownerId: userId(c.owner ?? defaultOwner),
      sharedWith: [],
      attachedFiles: [],
      settings: {
        sequential: false,
        hasCertificate: c.certificate ?? false,
        certificateValidDays: c.certificateValidDays ?? null,
        passingScore: c.passingScore ?? 60,
      },
      structure: structure(t, c.name, c.lessons ?? 2),
      experts: [],
    };
    t.addCourse(course);
    if (!c.draft) publishCourse(t, SITE_KEY, course.id, tick());
  }

  p.assignments.forEach((a, i) => {
    const where = `${path}.assignments[${i}]`;
    const options = { deadlineAt: a.deadline ?? null };
    if (a.group !== undefined) {
      within(where, () => assignToGroup(t, groupIds.get(a.group as string) ?? 0, a.course, options, tick()));
      return;
    }
    const learner = userId(a.user as string);
    // A group's assignment listed before gave the user the course already: assigning is idempotent
    // (docs/mock.md, What the mock assumes), so a deadline of this entry would be lost without a word.
    const existing = t.assignment(learner, a.course);
    if (existing && a.deadline !== undefined && existing.deadlineAt !== a.deadline)
      throw invalid(
        `${where}.deadline: ${a.user} has course ${a.course} already, through a group's assignment listed before, with ${
          existing.deadlineAt === null ? 'no deadline' : `the deadline ${toIso(existing.deadlineAt)}`
        }; list this assignment before the group's`,
      );
    within(where, () => assign(t, learner, a.course, options, tick()));
    const progress = a.progress ?? 0;
    if (progress === 100)
      within(where, () => finishCourse(t, SITE_KEY, learner, a.course, a.result ?? 100, tick()));
    else if (progress > 0) within(where, () => setProgress(t, learner, a.course, progress, tick()));
  });

  p.mcpKeys.forEach((k, i) => {
    const where = `${path}.mcpKeys[${i}]`;
    within(where, () =>
      createMcpKey(
        t,
        { id: k.id, userId: userId(k.user), prefix: k.prefix, hash: k.hash, scopes: k.scopes },
        tick(),
      ),
    );
    if (k.revoked) within(where, () => revokeMcpKey(t, k.id, tick()));
  });

  // Last, as a ban comes after what the user did (an expert cannot be banned: seed 001, User ban state).
  // A banned user's progress, certificates and `course.finished` above are therefore their history
  // before the ban, which a ban keeps; from then on they cannot play (seed 000, ban_user: "revokes
  // login and course access, keeps history").
  p.users.forEach((u, i) => {
    if (u.banned)
      within(`${path}.users[${i}].banned`, () => banUser(t, SITE_KEY, userById(t, userId(u.id)), tick()));
  });
  return t.toData();
}
