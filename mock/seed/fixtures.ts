// Fixtures: a platform state a test writes by hand (schema `Fixture` of openapi/admin; docs/mock.md,
// Fixtures). Like the demo seed (demo.ts) it is built through the domain's own rules — createUser,
// createGroup, assign, finishCourse, createMcpKey … — so the state is one the platform could reach,
// with its events and audit entries, and the same fixtures give the same ids and timestamps.
//
// Two steps, so that a load is a logged command that replays exactly (docs/mock.md, Durable
// state): `prepareFixture` checks what can be checked before anything is built (references,
// duplicates, the key format) and replaces every secret by its hash and every setting of the run
// (the mock's AI settings) by its value; `buildFixture` makes the tenants from that, and is what the
// `loadFixtures` command runs, at start and on replay alike — so it is the domain's
// (../domain/fixture-build.ts; the domain imports nothing of the seeds), re-exported here. Every
// problem names the entry and the field
// (`tenants[0].users[2].email: already used by tenants[0].users[0]`).
import { createHash } from 'node:crypto';
import type { components } from '../../generated/admin.ts';
import { CLOCK_MAX, toIso } from '../domain/clock.ts';
import { invalid } from '../domain/errors.ts';
import type {
  PreparedAssignment,
  PreparedFixture,
  PreparedKey,
  PreparedTenant,
} from '../domain/fixture-build.ts';
import { hashKey } from '../domain/mcp-keys.ts';
import type { AiSettings } from '../domain/model.ts';
import { hashPassword } from '../domain/users.ts';
import { START } from './demo.ts';

export {
  buildFixture,
  type PreparedAssignment,
  type PreparedFixture,
  type PreparedKey,
  type PreparedTenant,
  type PreparedUser,
} from '../domain/fixture-build.ts';
export type Fixture = components['schemas']['Fixture'];

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
