// v2 read content (seed 000, "Read tools"): what the read tools' answers hold, judged by value since
// the seed states their content and not their names — get_user's name, e-mail, role, group and a
// status that changes with a ban; find_course's id, name, annotation and a status that tells a draft
// from a published course; get_compliance_status per group; a certificate's expiry date. A fixture
// made through v1 (a user in a group, a course v1 lists) is looked for in the v2 answer by its
// values (./by-value.ts): a deployment lacking the content fails a MUST, one naming its fields
// otherwise passes. Only what cannot be found by value (a user's v2 id, a count, a certificate's
// course, a course's certificate validity) is read through the kit's names, which makes the check
// incomplete when the deployment names them otherwise. The fixtures need --allow-writes.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Departure, Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { courseToAssign, keyHeaders, v1Courses, v1Draft } from '../common/discover.ts';
import { createGroup, DAY, newUser } from '../common/fixtures.ts';
import { judge, mustPass, readAssumed } from '../common/judge.ts';
import { clockOf, courseEntry, datesIn, entriesIn, holdsText, leaves, same, v2IdOf } from './by-value.ts';

const reads = { mcpScope: 'read' as const, apiKey: true };
/** v1 fixtures (users, groups, assignments) and v2 reads. */
const v1Writes = { mcpScope: 'read' as const, apiKey: true, writes: true };
const area = (a: string) => `v2.${a}`;

/** The run's group for the read checks; each check adds its own member. */
const dataGroup = (ctx: Context) => ctx.once('v2data.group', () => createGroup(ctx, 'data members'));

export const v2ReadContentChecks: Check[] = [
  {
    id: 'v2.users.detail.content',
    area: area('users'),
    level: 'MUST',
    rules: ['000/get-user'],
    title:
      'get_user answers the name, e-mail, role and group of a user made through v1 in a group, and a status that changes when the user is banned',
    needs: v1Writes,
    run: async (ctx) => {
      const group = await dataGroup(ctx);
      const user = await newUser(ctx, 'data-detail', [group.id]);
      const userId = await v2IdOf(ctx, user.email);
      const read = async () => {
        const e = await ctx.v2.call('getUser', { params: { userId }, headers: keyHeaders(ctx, 'getUser') });
        mustPass(judge(ctx.v2, 'getUser', e, [200]));
        return e;
      };
      const before = await read();
      const b = before.body;
      // A membership by value: the group's name anywhere, or its id inside a nested value (the
      // top-level id is the user's own).
      const member =
        holdsText(b, group.name) ||
        leaves(b).some((l) => l.path.length > 1 && (l.value === group.id || l.value === String(group.id)));
      const missing = [
        holdsText(b, user.name) ? '' : `the name "${user.name}"`,
        holdsText(b, user.email, true) ? '' : `the e-mail ${user.email}`,
        holdsText(b, user.role, true) ? '' : `the role ${user.role}`,
        member ? '' : `the membership of group ${group.id} "${group.name}"`,
      ].filter(Boolean);
      if (missing.length)
        return fail(
          `get_user answers user ${userId}, made through v1 in group ${group.id}, without ${missing.join(', ')}`,
          evidenceOf(
            before,
            `name "${user.name}", e-mail, role ${user.role}, group ${group.id} "${group.name}", status`,
          ),
        );
      // The status by value: banning the user (v1, seed 001: "user cannot log in") must show.
      const ban = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id: user.apiId } });
      if (ban.status >= 300)
        throw new Departure(
          'the fixture user could not be banned through v1',
          evidenceOf(ban, 'the user, banned'),
        );
      const after = await read();
      return same(before.body, after.body)
        ? fail(
            `get_user answers user ${userId} the same before and after the user was banned: it shows no status`,
            evidenceOf(after, 'a status that tells the banned user from the active one'),
          )
        : pass();
    },
  },
  {
    id: 'v2.courses.search.fields',
    area: area('courses'),
    level: 'MUST',
    rules: ['000/find-course.fields'],
    title: 'find_course answers a course with the id, name and annotation v1 gives for it',
    needs: reads,
    run: async (ctx) => {
      const course = (await v1Courses(ctx)).find((c) => c.annotation);
      if (!course) throw new Incomplete('no course of GET /openapi/v1/courses has an annotation to look for');
      const { e, query, named, entry } = await courseEntry(ctx, course);
      const want = `course ${course.id} "${course.name}" with its annotation "${course.annotation}"`;
      if (!named.length)
        return fail(
          `find_course does not answer "${course.name}" (v1 course ${course.id}) by "${query}"`,
          evidenceOf(e, want),
        );
      if (!entry)
        return fail(`find_course answers "${course.name}" without its id ${course.id}`, evidenceOf(e, want));
      return holdsText(entry, course.annotation as string)
        ? pass()
        : fail(`find_course answers "${course.name}" without its annotation`, evidenceOf(e, want));
    },
  },
  {
    id: 'v2.courses.search.status',
    area: area('courses'),
    level: 'MUST',
    rules: ['000/find-course.fields'],
    title: 'find_course answers a status that tells a draft course from two published ones',
    needs: reads,
    run: async (ctx) => {
      const published = (await v1Courses(ctx)).filter((c) => c.isDraft === false).slice(0, 2);
      const [p1, p2] = published;
      if (!p1 || !p2) throw new Incomplete('GET /openapi/v1/courses lists fewer than two published courses');
      const draft = await v1Draft(ctx);
      const entries: Record<string, unknown>[] = [];
      for (const course of [p1, p2]) {
        const { e, entry } = await courseEntry(ctx, course);
        if (!entry)
          return fail(
            `find_course does not answer "${course.name}" with its id ${course.id}`,
            evidenceOf(e, `course ${course.id}`),
          );
        entries.push(entry);
      }
      const found = await courseEntry(ctx, draft);
      if (!found.entry)
        throw new Incomplete(
          `find_course does not answer the draft "${draft.name}" (course ${draft.id}) to this key, so no status can be compared`,
        );
      const [a, b] = entries as [Record<string, unknown>, Record<string, unknown>];
      const d = found.entry;
      // The status by value: some field the published courses share and the draft has otherwise.
      const status = Object.keys(a).filter((k) => same(a[k], b[k]) && !same(a[k], d[k]));
      return status.length
        ? pass()
        : fail(
            `find_course answers the draft "${draft.name}" and the published "${p1.name}" and "${p2.name}" with nothing that tells their status apart`,
            evidenceOf(
              found.e,
              `a status of course ${draft.id} other than that of courses ${p1.id} and ${p2.id}`,
            ),
          );
    },
  },
  {
    id: 'v2.statistics.compliance.group',
    area: area('statistics'),
    level: 'MUST',
    rules: ['000/compliance.group'],
    title:
      "get_compliance_status with groupId counts only the group's members: a member and a non-member assigned, one counted",
    needs: v1Writes,
    run: async (ctx) => {
      const group = await dataGroup(ctx);
      const member = await newUser(ctx, 'data-compliance-in', [group.id]);
      const outsider = await newUser(ctx, 'data-compliance-out');
      const courseId = (await courseToAssign(ctx)).id;
      const assigned = await ctx.v1.call('assignCourse', {
        params: { courseId },
        headers: ctx.v1Headers(),
        body: { users: [member.apiId, outsider.apiId] },
      });
      if (assigned.status >= 300)
        throw new Departure(
          `the run's users could not be assigned course ${courseId} through v1`,
          evidenceOf(assigned, 'the users assigned'),
        );
      const headers = keyHeaders(ctx, 'getCourseUserStatistics');
      const all = await ctx.v2.call('getCourseUserStatistics', { params: { courseId }, headers });
      mustPass(judge(ctx.v2, 'getCourseUserStatistics', all, [200]));
      const theirs = await ctx.v2.call('getCourseUserStatistics', {
        params: { courseId },
        query: { groupId: group.id },
        headers,
      });
      mustPass(judge(ctx.v2, 'getCourseUserStatistics', theirs, [200]));
      const want = `the breakdown of group ${group.id}: its one assigned member ${member.email}, not ${outsider.email}`;
      if (same(all.body, theirs.body))
        return fail(
          `with groupId=${group.id} the breakdown of course ${courseId} is the same as without it`,
          evidenceOf(theirs, want),
        );
      if (holdsText(theirs.body, outsider.email, true))
        return fail(
          `with groupId=${group.id} the breakdown lists ${outsider.email}, who is not a member of the group`,
          evidenceOf(theirs, want),
        );
      const count = (e: Exchange) =>
        readAssumed(e, 'the number of assigned users', (b: { assigned?: number }) => b.assigned);
      const [everyone, members] = [count(all), count(theirs)];
      return members === 1 && everyone >= 2
        ? pass()
        : fail(
            `${members} assigned with groupId=${group.id} (one member, assigned) and ${everyone} without it (at least that member and a non-member)`,
            evidenceOf(theirs, want),
          );
    },
  },
  {
    id: 'v2.users.certificates.expiry',
    area: area('users'),
    level: 'MUST',
    rules: ['000/certificates.expiry'],
    title: 'a certificate of a course whose certificates expire is answered with an expiry date',
    needs: reads,
    run: async (ctx) => {
      // Whose certificates to read: the leaders first (those who finish courses), when a key may
      // read the leaderboard and it is named as the kit assumed, then the users find_user lists.
      const leaderKey = ctx.keyFor('getLeaderboard');
      const leaders = leaderKey
        ? await ctx.v2.call('getLeaderboard', {
            query: { limit: 10 },
            headers: { 'x-mcp-key': leaderKey.key },
          })
        : undefined;
      const leaderIds =
        leaders && leaders.status === 200
          ? ((leaders.body as { leaders?: { user?: { id?: number } }[] })?.leaders ?? []).flatMap((l) =>
              typeof l?.user?.id === 'number' ? [l.user.id] : [],
            )
          : [];
      const found = await ctx.v2.call('searchUsers', {
        query: { query: '@', limit: 50 },
        headers: keyHeaders(ctx, 'searchUsers'),
      });
      mustPass(judge(ctx.v2, 'searchUsers', found, [200]));
      const listed = readAssumed(found, 'the users found', (b: { users?: { id: number }[] }) => b.users);
      const users = [...new Set([...leaderIds, ...listed.map((u) => u.id)])]
        .slice(0, 20)
        .map((id) => ({ id }));
      // Whether a course's certificates expire, and after how many days: the course's settings, as
      // the kit names them (the seed says "settings" only).
      const validity = new Map<number, number | null>();
      const validDays = async (courseId: number) => {
        if (!validity.has(courseId)) {
          const e = await ctx.v2.call('getCourse', {
            params: { courseId },
            headers: keyHeaders(ctx, 'getCourse'),
          });
          mustPass(judge(ctx.v2, 'getCourse', e, [200]));
          const days = readAssumed(
            e,
            "how long the course's certificates stay valid",
            (b: { settings?: { certificateValidDays?: number | null } }) => b.settings?.certificateValidDays,
          );
          validity.set(courseId, days);
        }
        return validity.get(courseId) ?? null;
      };
      for (const user of users) {
        const e = await ctx.v2.call('listUserCertificates', {
          params: { userId: user.id },
          headers: keyHeaders(ctx, 'listUserCertificates'),
        });
        mustPass(judge(ctx.v2, 'listUserCertificates', e, [200]));
        const clock = clockOf(e);
        const expiring: { courseId: number; days: number; dates: number[] }[] = [];
        for (const certificate of entriesIn(e, "the user's certificates")) {
          const courseId = (certificate as { courseId?: number } | null)?.courseId;
          if (typeof courseId !== 'number')
            throw new Incomplete(
              `the course of a certificate cannot be read from GET /api/v2/users/${user.id}/certificates: the answer does not use the names the kit assumed`,
            );
          const days = await validDays(courseId);
          if (days) expiring.push({ courseId, days, dates: datesIn(certificate, clock) });
        }
        if (!expiring.length) continue;
        // By value: besides its issue date, the certificate holds a date about that many days later.
        const bare = expiring.filter(
          ({ days, dates }) => !dates.some((a) => dates.some((b) => Math.abs(b - a - days * DAY) <= 2 * DAY)),
        );
        return bare.length
          ? fail(
              `user ${user.id}'s certificate of course ${bare[0]?.courseId}, whose certificates stay valid ${bare[0]?.days} days, is answered without an expiry date`,
              evidenceOf(e, 'each certificate with its issue date and, when set, its expiry date'),
            )
          : pass();
      }
      throw new Incomplete(
        `none of ${users.length} users (the leaders, then those find_user lists) holds a certificate of a course whose certificates expire`,
      );
    },
  },
];
