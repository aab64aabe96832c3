// What a key may do depends on who owns the target (seed 000, Permission identifiers; Authentication
// 5): assign_chain needs the caller to own the chain (--chain, the admin's), and assigns its courses
// with the deadline given to users and groups; `course_edit` is asked on the specific course, so the
// author key is refused on the admin's course copy and the course stays as it was; a banned owner's
// key gets 401 until the owner is unbanned. Needs --role-key, --chain and --allow-writes.
import { type Context, evidenceOf, fail, type KeyInfo, pass } from '../../context.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check, Verdict } from '../../types.ts';
import { assignmentsOf, keyHeaders } from '../common/discover.ts';
import { dayFromNow, groupWithMember, userInV2 } from '../common/fixtures.ts';
import { clonedCourse } from '../common/generation.ts';
import { judge, judgeUnauthorized, mustPass, type Request, readAssumed } from '../common/judge.ts';
import { headersOf, mustOffer, requireWriteTools, roleKey } from '../common/keys.ts';

const area = 'v2.permission';

/** An element of a course's structure, in the kit's names. */
type Element = { id: number; type: string; questionType?: string };

/** The structure of a course through get_course with the admin's key (its name the kit's). */
async function structureOf(ctx: Context, courseId: number) {
  const e = await ctx.v2.call('getCourse', { params: { courseId }, headers: keyHeaders(ctx, 'getCourse') });
  mustPass(judge(ctx.v2, 'getCourse', e, [200]));
  const elements = readAssumed(
    e,
    "the course's elements",
    (b: { structure?: { elements?: Element[] } }) => b.structure?.elements,
  );
  return { e, elements, text: JSON.stringify((e.body as { structure?: unknown }).structure) };
}

/**
 * The author key acting on a course it neither owns nor shares — the copy the admin's key made for
 * the run — is refused with 403, and the course stays as it was.
 */
function courseEditRefused(
  name: string,
  rule: string,
  operationId: string,
  request: (courseId: number, elements: Element[]) => Request,
): Check {
  return {
    id: `v2.permission.course-edit.${name.replace(/_course$/, '').replace(/_/g, '-')}`,
    area,
    level: 'MUST',
    rules: [rule, '000/permission.refused'],
    title: `the author calling ${name} on a course it neither owns nor shares (the admin's copy) is refused with 403 and the course is unchanged`,
    needs: { roles: ['author'], mcpScope: 'write', writes: true },
    run: async (ctx) => {
      const author = roleKey(ctx, 'author');
      mustOffer(author, name, '`course_edit` on a specific course');
      const { id: courseId } = await clonedCourse(ctx);
      const before = await structureOf(ctx, courseId);
      const e = await ctx.v2.callRaw(operationId, {
        ...request(courseId, before.elements),
        headers: headersOf(author),
      });
      if (e.status !== 403)
        return fail(
          `${name} by the author on the admin's course ${courseId} answered ${e.status}`,
          evidenceOf(e, '403: course_edit on that course (owning, sharing or administering it) is missing'),
        );
      mustPass(judge(ctx.v2, operationId, e, [403]));
      const after = await structureOf(ctx, courseId);
      return after.text === before.text
        ? pass()
        : fail(
            `course ${courseId} changed after a refused ${name}`,
            evidenceOf(after.e, 'the structure unchanged'),
          );
    },
  };
}

/** The id of the copy's first lesson, or of its first single-choice question. */
const elementOf = (elements: Element[], type: 'question' | 'lesson') => {
  const found = elements.find((x) => x.type === type && (type === 'lesson' || x.questionType === 'single'));
  if (!found) throw new Incomplete(`the admin's course copy has no ${type} to regenerate`);
  return found.id;
};

export const v2OwnershipChecks: Check[] = [
  {
    id: 'v2.chains.assign',
    area: 'v2.chains',
    level: 'MUST',
    rules: ['000/assign-chain', '000/assign-chain.deadline'],
    title:
      "assigning the chain (--chain) to a user and a group with a deadline gives both the chain's courses, each with that deadline",
    needs: { config: ['chainId'], mcpScope: 'write', writes: true, apiKey: true },
    run: async (ctx) => {
      requireWriteTools(ctx, 'assign_chain');
      const writer = ctx.key('write') as KeyInfo;
      const chainId = Number(ctx.config.chainId);
      const user = await userInV2(ctx, 'chain-user');
      const group = await groupWithMember(ctx, 'chain');
      // A whole day, 60 days ahead of the deployment's clock as the suite sees it.
      const deadlineAt = dayFromNow(60);
      const e = await ctx.v2.call('assignCourseChain', {
        params: { chainId },
        headers: headersOf(writer),
        body: { users: [user.id], groups: [group.id], deadlineAt },
      });
      mustPass(judge(ctx.v2, 'assignCourseChain', e, [200]));
      const mine = await assignmentsOf(ctx, { userId: user.id });
      const theirs = await assignmentsOf(ctx, { groupId: group.id });
      if (!mine.courses.length)
        return fail(
          `the user has no assignment after assign_chain of chain ${chainId}`,
          evidenceOf(mine.e, 'the chain'),
        );
      if (mine.courses.join() !== theirs.courses.join())
        return fail(
          `the user was given courses ${mine.courses.join(', ')}, the group ${theirs.courses.join(', ') || 'none'}`,
          evidenceOf(theirs.e, `the chain's courses ${mine.courses.join(', ')} for both`),
        );
      const answered = (e.body as { courseIds?: unknown }).courseIds;
      if (Array.isArray(answered) && [...answered].sort((a, b) => a - b).join() !== mine.courses.join())
        return fail(
          `the answer names the chain's courses ${answered.join(', ')}; the user was given ${mine.courses.join(', ')}`,
          evidenceOf(mine.e, `courses ${answered.join(', ')}`),
        );
      const late = [...mine.rows, ...theirs.rows].filter((r) => r.deadlineAt !== deadlineAt);
      return late.length
        ? fail(
            `course ${late[0]?.courseId} has the deadline ${late[0]?.deadlineAt}, the chain was given ${deadlineAt}`,
            evidenceOf(
              late.length === theirs.rows.length ? theirs.e : mine.e,
              `deadlineAt ${deadlineAt} on every course of the chain`,
            ),
          )
        : pass();
    },
  },
  {
    id: 'v2.chains.assign.not-owner',
    area: 'v2.chains',
    level: 'MUST',
    rules: ['000/assign-chain.owner', '000/permission.refused'],
    title:
      "a manager (offered assign_chain) assigning a chain it does not own (--chain, the admin's) is refused with 403 and assigns nothing",
    needs: { roles: ['manager'], config: ['chainId'], mcpScope: 'read', writes: true, apiKey: true },
    run: async (ctx) => {
      const manager = roleKey(ctx, 'manager');
      mustOffer(manager, 'assign_chain', 'chain ownership');
      if (ctx.keys.some((k) => k.user.id === manager.user.id))
        throw new Incomplete('the manager key has the same owner as --mcp-key, who owns the chain (--chain)');
      const chainId = Number(ctx.config.chainId);
      const user = await userInV2(ctx, 'chain-target');
      const before = await assignmentsOf(ctx, { userId: user.id });
      const e = await ctx.v2.call('assignCourseChain', {
        params: { chainId },
        headers: headersOf(manager),
        body: { users: [user.id] },
      });
      if (e.status !== 403)
        return fail(
          `the manager key assigning chain ${chainId} of another user answered ${e.status}`,
          evidenceOf(e, '403: only the chain’s owner may assign it'),
        );
      mustPass(judge(ctx.v2, 'assignCourseChain', e, [403]));
      const after = await assignmentsOf(ctx, { userId: user.id });
      return after.courses.join() === before.courses.join()
        ? pass()
        : fail(
            `the user was given courses ${after.courses.join(', ')} by a refused assign_chain`,
            evidenceOf(after.e, `courses ${before.courses.join(', ') || 'none'}`),
          );
    },
  },
  courseEditRefused('refine_course', '000/refine.permission', 'refineCourse', (courseId) => ({
    params: { courseId },
    body: { feedback: 'Add an example about sailing knots' },
  })),
  courseEditRefused(
    'regenerate_question',
    '000/regenerate-question.permission',
    'regenerateQuestion',
    (_c, elements) => ({ params: { questionId: elementOf(elements, 'question') }, body: {} }),
  ),
  courseEditRefused(
    'regenerate_lesson',
    '000/regenerate-lesson.permission',
    'regenerateLesson',
    (_c, elements) => ({ params: { lessonId: elementOf(elements, 'lesson') }, body: {} }),
  ),
  courseEditRefused('clone_course', '000/clone-course.permission', 'cloneCourse', (courseId) => ({
    body: { courseId },
  })),
  // Last: it bans the learner key's owner for a moment, and nothing after it needs that key.
  {
    id: 'v2.auth.banned-owner',
    area: 'v2.auth',
    level: 'MUST',
    rules: ['000/auth.banned-owner', '001/users.ban-login', '000/errors.unauthorized'],
    title:
      "the learner key's owner banned (ban_user with the admin's key), the learner key gets 401; unbanned, it is accepted again",
    needs: { roles: ['learner'], mcpScope: 'write', writes: true },
    run: async (ctx) => {
      requireWriteTools(ctx, 'ban_user');
      requireWriteTools(ctx, 'unban_user');
      const writer = ctx.key('write') as KeyInfo;
      const learner = roleKey(ctx, 'learner');
      const userId = learner.user.id;
      // The budget first: no ban is made when the 401 could not be asked for.
      ctx.spendFailedLogin();
      const ban = await ctx.v2.call('banUser', { headers: headersOf(writer), body: { userId } });
      mustPass(judge(ctx.v2, 'banUser', ban, [200]));
      let refused: Verdict;
      try {
        const e = await ctx.v2.call('getCapabilities', { headers: headersOf(learner) });
        refused = judgeUnauthorized(ctx.v2, 'getCapabilities', e);
      } finally {
        const unban = await ctx.v2.call('unbanUser', { params: { userId }, headers: headersOf(writer) });
        if (unban.status >= 300)
          ctx.cleanup(() => ctx.v2.call('unbanUser', { params: { userId }, headers: headersOf(writer) }));
      }
      if (refused.status !== 'pass')
        return { ...refused, reason: `with its owner banned, ${refused.reason}` };
      const again = await ctx.v2.call('getCapabilities', { headers: headersOf(learner) });
      if (again.status !== 200)
        return fail(`unbanned, the learner key is still refused (${again.status})`, evidenceOf(again, '200'));
      return judge(ctx.v2, 'getCapabilities', again, [200]);
    },
  },
];
