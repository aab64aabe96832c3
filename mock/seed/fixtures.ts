// Fixtures: a platform state a test writes by hand (schema `Fixture` of openapi/admin; docs/mock.md,
// Fixtures). Like the demo seed (demo.ts) it is built through the domain's own rules — createUser,
// createGroup, assign, finishCourse, createMcpKey … — so the state is one the platform could reach,
// with its events and audit entries, and the same fixtures give the same ids and timestamps.
//
// Two steps, so that a load is a logged command that replays exactly (docs/mock.md, Durable
// state): `prepareFixture` checks what can be checked before anything is built (references,
// duplicates, the key format) and replaces every secret by its hash and every setting of the run
// (the mock's AI settings) by its value; `buildFixture` makes the tenants from that, and is what the
// `loadFixtures` command runs, at start and on replay alike. Every problem names the entry and the
// field (`tenants[0].users[2].email: already used by tenants[0].users[0]`).
import { createHash } from 'node:crypto';
import type { components } from '../../generated/admin.ts';
import { updateAiSettings } from '../domain/ai.ts';
import { assign, assignToGroup, finishCourse, setProgress } from '../domain/assignments.ts';
import { upsertAttributes } from '../domain/attributes.ts';
import { SITE_KEY } from '../domain/audit.ts';
import { CLOCK_MAX, DAY, toIso } from '../domain/clock.ts';
import { publishCourse } from '../domain/courses.ts';
import { DomainError, invalid } from '../domain/errors.ts';
import { addMember, createGroup } from '../domain/groups.ts';
import { createMcpKey, hashKey, revokeMcpKey } from '../domain/mcp-keys.ts';
import type { AiSettings, AttributeType, Course, TenantData } from '../domain/model.ts';
import { TenantState } from '../domain/tenant-state.ts';
import { banUser, createUser, hashPassword, userById } from '../domain/users.ts';
import { START, structure } from './demo.ts';

export type Fixture = components['schemas']['Fixture'];
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

/** The most problems one answer lists; the rest are counted. */
const SHOWN_PROBLEMS = 10;

class Problems {
  private readonly list: string[] = [];
  add(where: string, what: string): void {
    this.list.push(`${where}: ${what}`);
  }
  throwIfAny(): void {
    if (!this.list.length) return;
    const shown = this.list.slice(0, SHOWN_PROBLEMS).join('; ');
    const more = this.list.length - SHOWN_PROBLEMS;
    throw invalid(more > 0 ? `${shown}; and ${more} more` : shown);
  }
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

/** Unix seconds of a date-time the schema has checked, or undefined (the problem added) before 1970. */
function secondsOf(iso: string, where: string, problems: Problems): number | undefined {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  problems.add(where, `${iso} is not a date-time from 1970 on`);
  return undefined;
}

/** `<id>_site_key_` and 16 hex digits of the id's hash: the same key on every load. */
export const fixtureSiteKey = (tenantId: string) =>
  `${tenantId}_site_key_${createHash('sha256').update(`lmskit fixture site key ${tenantId}`).digest('hex').slice(0, 16)}`;

/** `key_` and 12 hex digits of the key's hash. */
const fixtureKeyId = (hash: string) => `key_${hash.slice(0, 12)}`;

/** Finds the first entry of a list that has a value again: `where` of the earlier one, by value. */
function firstOf<T>(): (value: T, where: string) => string | undefined {
  const seen = new Map<T, string>();
  return (value, where) => {
    const earlier = seen.get(value);
    if (earlier === undefined) seen.set(value, where);
    return earlier;
  };
}

/**
 * Checks the fixtures (their shape is the schema's, checked before) and turns them into what the
 * `loadFixtures` command is given. Throws a VALIDATION_ERROR naming every problem found.
 */
export function prepareFixture(
  fixture: Fixture,
  settings: { ai?: Partial<AiSettings> } = {},
): PreparedFixture {
  const problems = new Problems();
  let now = fixture.now === undefined ? START : (secondsOf(fixture.now, 'now', problems) ?? START);
  // Where the clock starts, so within the clock's bound (openapi/admin ClockTime).
  if (now > CLOCK_MAX) {
    problems.add('now', `${fixture.now} is after the clock's maximum, ${toIso(CLOCK_MAX)}`);
    now = START;
  }
  const tenantIds = firstOf<string>();
  const siteKeys = firstOf<string>();
  const keyTexts = firstOf<string>();

  const tenants = fixture.tenants.map((tenant, ti): PreparedTenant => {
    const path = `tenants[${ti}]`;
    const earlierTenant = tenantIds(tenant.id, path);
    if (earlierTenant) problems.add(`${path}.id`, `already used by ${earlierTenant}`);
    const siteApiKey = tenant.siteApiKey ?? fixtureSiteKey(tenant.id);
    const earlierKey = siteKeys(siteApiKey, path);
    if (earlierKey) problems.add(`${path}.siteApiKey`, `already used by ${earlierKey}`);

    const attributes = tenant.userAttributes ?? [];
    const attributeIds = firstOf<string>();
    attributes.forEach((a, i) => {
      const where = `${path}.userAttributes[${i}]`;
      const earlier = attributeIds(a.apiId, where);
      if (earlier) problems.add(`${where}.apiId`, `already used by ${earlier}`);
      const choice = a.type === 3 || a.type === 4;
      if (choice && !a.options)
        problems.add(`${where}.options`, 'a choice attribute (type 3 or 4) needs options');
      if (!choice && a.options)
        problems.add(`${where}.options`, 'only a choice attribute (type 3 or 4) has options');
    });

    const users = tenant.users ?? [];
    const userIds = firstOf<string>();
    const emails = firstOf<string>();
    users.forEach((u, i) => {
      const where = `${path}.users[${i}]`;
      const earlierId = userIds(u.id, where);
      if (earlierId) problems.add(`${where}.id`, `already used by ${earlierId}`);
      const earlierEmail = emails(u.email.toLowerCase(), where);
      if (earlierEmail) problems.add(`${where}.email`, `already used by ${earlierEmail}`);
    });
    const known = new Set(users.map((u) => u.id));
    const checkUser = (id: string, where: string) => {
      if (!known.has(id)) problems.add(where, `no user has the id ${id} in ${path}.users`);
    };

    const groups = tenant.groups ?? [];
    const groupNames = firstOf<string>();
    groups.forEach((g, i) => {
      const where = `${path}.groups[${i}]`;
      if (g.parent !== undefined && !groups.slice(0, i).some((p) => p.name === g.parent))
        problems.add(`${where}.parent`, `no group named ${g.parent} is listed before it`);
      const earlier = groupNames(g.name, where);
      if (earlier) problems.add(`${where}.name`, `already used by ${earlier}`);
      g.members?.forEach((m, j) => {
        checkUser(m, `${where}.members[${j}]`);
      });
    });
    const groupSet = new Set(groups.map((g) => g.name));

    const courses = tenant.courses ?? [];
    courses.forEach((c, i) => {
      const where = `${path}.courses[${i}]`;
      if (c.owner !== undefined) checkUser(c.owner, `${where}.owner`);
      else if (!users.length) problems.add(`${where}.owner`, `${path} has no user to own the course`);
      if (c.certificateValidDays !== undefined && !c.certificate)
        problems.add(`${where}.certificateValidDays`, 'only a course with certificate: true has it');
    });
    const courseId = (ref: number | string, where: string): number => {
      if (typeof ref === 'number') {
        if (ref > courses.length)
          problems.add(where, `no course has the id ${ref}: ${path}.courses has ${courses.length}`);
        return ref;
      }
      const named = courses.flatMap((c, i) => (c.name === ref ? [i] : []));
      if (named.length !== 1)
        problems.add(
          where,
          named.length
            ? `${named.length} courses are named ${ref} (${named.map((i) => `${path}.courses[${i}]`).join(', ')}); name it by its id`
            : `no course is named ${ref} in ${path}.courses`,
        );
      return (named[0] ?? 0) + 1;
    };

    const assigned = firstOf<string>();
    const assignments = (tenant.assignments ?? []).map((a, i): PreparedAssignment => {
      const where = `${path}.assignments[${i}]`;
      if ((a.user === undefined) === (a.group === undefined))
        problems.add(
          where,
          a.user === undefined ? 'name a user or a group' : 'name a user or a group, not both',
        );
      if (a.user !== undefined) checkUser(a.user, `${where}.user`);
      if (a.group !== undefined && !groupSet.has(a.group))
        problems.add(`${where}.group`, `no group is named ${a.group} in ${path}.groups`);
      if (a.group !== undefined && a.progress !== undefined)
        problems.add(`${where}.progress`, "only a user's assignment has progress");
      if (a.result !== undefined && a.progress !== 100)
        problems.add(`${where}.result`, 'only a finished assignment (progress: 100) has a result');
      const course = courseId(a.course, `${where}.course`);
      const target = a.user !== undefined ? `user ${a.user}` : `group ${a.group}`;
      const earlier = assigned(`${target}\n${course}`, where);
      if (earlier) problems.add(where, `${target} is assigned course ${course} by ${earlier} already`);
      const { course: _ref, deadline, ...rest } = a;
      return {
        ...rest,
        course,
        ...(deadline !== undefined ? { deadline: secondsOf(deadline, `${where}.deadline`, problems) } : {}),
      };
    });

    const keyIds = firstOf<string>();
    const mcpKeys = (tenant.mcpKeys ?? []).map((k, i): PreparedKey => {
      const where = `${path}.mcpKeys[${i}]`;
      checkUser(k.user, `${where}.user`);
      if (tenant.mcpLicensed === false)
        problems.add(where, `${path} has mcpLicensed: false, and an MCP key needs an MCP licence`);
      const earlierText = keyTexts(k.key, where);
      if (earlierText) problems.add(`${where}.key`, `already used by ${earlierText}`);
      const hash = hashKey(k.key);
      const id = k.id ?? fixtureKeyId(hash);
      const earlierId = keyIds(id, where);
      if (earlierId) problems.add(`${where}.id`, `already used by ${earlierId}`);
      const { key, ...rest } = k;
      return { ...rest, id, prefix: key.slice(0, 5), hash };
    });

    return {
      ...tenant,
      siteApiKey,
      ai: { ...settings.ai, ...tenant.ai },
      users: users.map(({ password, ...u }) => ({
        ...u,
        passwordHash: hashPassword(password ?? `fixture-password-${u.id}`),
      })),
      assignments,
      mcpKeys,
    };
  });
  problems.throwIfAny();
  return { now, tenants };
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
