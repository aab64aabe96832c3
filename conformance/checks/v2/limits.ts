// The deployment's limits, provoked only with --probe-limits (seed 000, Errors: 429; Limits), in this
// order, after every other check: the per-key rate limit (with the read-only key, which nothing uses
// afterwards), the tool server's retries of a 429 (with that key, just limited), one key's daily AI
// quota (the key that made the run's AI calls), and last the failed-login limit from this address,
// whose lockout ends every v2 request of the run. Each probe stops at its first 429 or at its budget
// (BUDGET in context.ts), and counts what it spent; the reports print it. Not meeting a limit within
// the budget is no failure: the seed does not show the rate limit's value nor the failed-login
// threshold, so the check is incomplete.
import { randomBytes } from 'node:crypto';
import { BUDGET, type Context, evidenceOf, fail, type KeyInfo, pass } from '../../context.ts';
import { type Exchange, retryAfterOf } from '../../http.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check, Verdict } from '../../types.ts';
import { codeOf, messageOf } from '../common/body.ts';
import { keyHeaders } from '../common/discover.ts';
import { clonedCourse } from '../common/generation.ts';
import { judge, mustPass, readAssumed } from '../common/judge.ts';
import { tail } from '../common/keys.ts';
import { connect } from '../common/mcp-client.ts';

/** Seed 000, Limits: "5 calls per key per day". */
const AI_QUOTA_PER_KEY = 5;
/** Requests in flight at once while a probe provokes the rate limit. */
const WORKERS = 4;
/**
 * How long, at most, the key is kept limited after a tool call went to the tool server: long enough
 * for its first backend request to meet the 429, and at most half the delay the deployment asked for,
 * which a tool server that backs off waits at least once (the kit's waits the delay asked, at least
 * 0.5 s).
 */
const DRAIN_MS = 500;
/** Three backoffs of 1, 2 and 4 s: a longer delay asked cannot be expected to be waited out. */
const BACKOFF_SPAN_S = 7;

/** Seed 000, Errors: "A 429 carries the retry delay inside the error message text": a number of s, min or h. */
const DELAY = /\b(\d+(?:\.\d+)?)\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b/i;
/** The delay a message states, in seconds. */
function delayIn(message: string): number | undefined {
  const m = DELAY.exec(message);
  if (!m) return undefined;
  const unit = (m[2] as string).toLowerCase();
  return Number(m[1]) * (unit.startsWith('h') ? 3600 : unit.startsWith('m') ? 60 : 1);
}

/** A 429 as documented, with its code, and stating the delay in its message (000/rate-limits.retry-delay). */
function judge429(ctx: Context, operationId: string, e: Exchange, code: string | undefined): Verdict {
  const want = `429${code ? ` ${code}` : ''}, the retry delay in the message`;
  if (e.status !== 429) return fail(`answered ${e.status}`, evidenceOf(e, want));
  mustPass(judge(ctx.v2, operationId, e, [429]));
  if (code && codeOf(e) !== code)
    return fail(`the 429 has code ${JSON.stringify(codeOf(e))}`, evidenceOf(e, want));
  if (delayIn(messageOf(e)) === undefined)
    return fail(
      `the 429's message "${messageOf(e).slice(0, 160)}" does not state the retry delay`,
      evidenceOf(e, want),
    );
  return pass();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const capabilities = (ctx: Context, key: string) =>
  ctx.v2.callRaw('getCapabilities', { headers: { 'x-mcp-key': key }, waitOut429: false });

/**
 * Requests with one key (its capabilities, the cheapest) while `go` holds and the run's budget lasts,
 * a few at a time, until one is refused (or, `untilRefused` false, on regardless: keeping the key
 * limited); each counts in `spent.rateLimitRequests`. Returns the first answer that is not 200.
 */
async function hammer(
  ctx: Context,
  key: string,
  go: () => boolean,
  untilRefused = true,
): Promise<Exchange | undefined> {
  let found: Exchange | undefined;
  const worker = async () => {
    while (!(untilRefused && found) && go() && ctx.spent.rateLimitRequests < BUDGET.rateLimitProbe) {
      ctx.spent.rateLimitRequests++;
      const e = await capabilities(ctx, key);
      if (e.status !== 200) found ??= e;
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  return found;
}

/** Requests with one key until it is refused, at most the run's budget: the refusal, if any. */
async function exhaust(ctx: Context, key: string): Promise<Exchange> {
  const before = ctx.spent.rateLimitRequests;
  const e = await hammer(ctx, key, () => true);
  if (!e)
    throw new Incomplete(
      `no 429 within ${ctx.spent.rateLimitRequests - before} requests of key ${tail(key)} (the run's budget is ${BUDGET.rateLimitProbe}): the per-key rate limit is above that (the seed does not show its value)${ctx.config.rate ? `, or above --rate ${ctx.config.rate}/s` : ''}`,
    );
  return e;
}

/** A tool cheap to call, with arguments, among those the key is offered. */
const CHEAP_TOOLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'get_leaderboard', arguments: {} },
  { name: 'list_my_assignments', arguments: {} },
  { name: 'get_statistics', arguments: { scope: 'overview' } },
  { name: 'find_course', arguments: { query: 'a' } },
];

/** A wrong key shaped like the keys given (their 5-character prefix, 43 characters of base64url). */
const wrongKey = (ctx: Context) =>
  `${ctx.config.mcpKeys[0]?.slice(0, 5) ?? 'lmcp_'}${randomBytes(32).toString('base64url')}`;

export const limitChecks: Check[] = [
  {
    id: 'v2.limits.rate-limit',
    area: 'v2.limits',
    level: 'MUST',
    rules: ['000/rate-limits', '000/rate-limits.retry-delay', '000/errors.shape'],
    title:
      'requests with one key past its rate limit get 429 MCP_RATE_LIMITED, the retry delay in the message; another key is not limited by them',
    needs: { probeLimits: true, readOnlyKey: true },
    run: async (ctx) => {
      const k = ctx.readOnlyKey() as KeyInfo;
      const e = await exhaust(ctx, k.key);
      mustPass(judge429(ctx, 'getCapabilities', e, 'MCP_RATE_LIMITED'));
      // Seed 000: a per-key limit, so another key goes on while this one waits.
      const other = ctx.allKeys().find((o) => o.key !== k.key);
      if (!other) return pass();
      const o = await capabilities(ctx, other.key);
      return o.status === 429
        ? fail(
            `while key ${tail(k.key)} is rate-limited, key ${tail(other.key)} is refused too: the limit is not per key`,
            evidenceOf(o, '200: the rate limit is per key'),
          )
        : judge(ctx.v2, 'getCapabilities', o, [200]);
    },
  },
  {
    id: 'mcp.tools.retries-429',
    area: 'mcp.tools',
    level: 'MUST',
    rules: ['000/tool-server.retries'],
    title: `a read tool called while its key is rate-limited (kept so for up to ${DRAIN_MS} ms, half the delay asked) gets through: the tool server retries the 429 with backoff`,
    needs: { probeLimits: true, mcpUrl: true, readOnlyKey: true },
    run: async (ctx) => {
      const k = ctx.readOnlyKey() as KeyInfo;
      const tool = CHEAP_TOOLS.find((t) => k.tools.includes(t.name));
      if (!tool)
        throw new Incomplete(
          `the read-only key ${tail(k.key)} is offered none of ${CHEAP_TOOLS.map((t) => t.name).join(', ')}`,
        );
      const headers = { 'x-mcp-key': k.key };
      // The key usable again (the rate-limit probe may have just limited it): a short 429 waited out.
      await ctx.v2.call('getCapabilities', { headers });
      const client = await connect(ctx, k.key).catch((error: Error) => {
        throw new Incomplete(
          `the tool server could not be connected to with key ${tail(k.key)}: ${error.message}`,
        );
      });
      try {
        // The key is kept limited by requests of our own while the call is under way; a busy machine
        // can let the tool server's request slip through a gap (it then never meets the 429), so the
        // attempt is made again, up to three times, before the check gives up as incomplete.
        for (let attempt = 1; ; attempt++) {
          const hit = await exhaust(ctx, k.key);
          if (hit.status !== 429)
            throw new Incomplete(
              `key ${tail(k.key)} was answered ${hit.status}, not 429 (v2.limits.rate-limit judges that)`,
            );
          const asked = retryAfterOf(hit.headers, messageOf(hit)) ?? delayIn(messageOf(hit));
          if (asked === undefined)
            throw new Incomplete(
              "the rate limit's 429 does not say how long to wait (v2.limits.rate-limit judges that)",
            );
          if (asked > BACKOFF_SPAN_S)
            throw new Incomplete(
              `the deployment asks to wait ${asked} s after the rate limit, longer than three backoffs (1, 2, 4 s) can be expected to wait: whether the tool server retries cannot be told`,
            );
          // Keep the key limited while the call reaches the tool server and its backend, then let it through.
          const drainMs = Math.min(DRAIN_MS, asked * 500);
          let draining = true;
          const drain = hammer(ctx, k.key, () => draining, false);
          const t0 = Date.now();
          const call = client.callTool(tool).then(
            (result) => ({ result, error: undefined }),
            (error: Error) => ({ result: undefined, error }),
          );
          await Promise.race([call, sleep(drainMs)]);
          draining = false;
          await drain;
          const { result, error } = await call;
          const took = Date.now() - t0;
          const said = error ? error.message : JSON.stringify(result?.content ?? '').slice(0, 300);
          const evidence = {
            expected: `${tool.name} gets through: the tool server retries the backend's 429 (the deployment asked to wait ${asked} s) with backoff, up to 3 times`,
            received: `${error ? 'an error' : result?.isError ? 'a tool error' : 'a result'} after ${took} ms: ${said}`,
          };
          if (error || result?.isError)
            return fail(
              `${tool.name} failed ${took} ms after it was called, the key rate-limited for its first ${drainMs} ms: the tool server did not retry the 429 until the limit let it through`,
              evidence,
            );
          if (took >= drainMs) break;
          if (attempt === 3)
            throw new Incomplete(
              `${tool.name} got through in ${took} ms three times, while the key was kept rate-limited: its backend request did not meet the 429, so whether the tool server retries cannot be told`,
            );
        }
        return pass();
      } finally {
        await client.close().catch(() => {});
      }
    },
  },
  {
    id: 'v2.limits.ai-quota',
    area: 'v2.limits',
    level: 'MUST',
    rules: ['000/ai.quota', '000/ai.quota-shared', '000/rate-limits.retry-delay'],
    title:
      "a key's AI calls — refinement, regeneration and generation in turn — are refused with 429 once it has made 5 that day, the retry delay in the message",
    needs: { probeLimits: true, writes: true, mcpScope: 'write' },
    run: async (ctx) => {
      const headers = keyHeaders(ctx, 'refineCourse');
      const key = headers['x-mcp-key'] as string;
      const offered = ctx.allKeys().find((x) => x.key === key)?.tools ?? [];
      const { id: courseId } = await clonedCourse(ctx);
      // The copy's lesson and single-choice question, when its structure reads as the kit assumed.
      const course = await ctx.v2.call('getCourse', {
        params: { courseId },
        headers: keyHeaders(ctx, 'getCourse'),
      });
      let elements: { id: number; type?: string; questionType?: string }[] = [];
      try {
        elements = readAssumed(
          course,
          "the copy's elements",
          (b: { structure?: { elements?: typeof elements } }) => b.structure?.elements,
        );
      } catch {}
      const lesson = elements.find((x) => x.type === 'lesson')?.id;
      const question = elements.find((x) => x.type === 'question' && x.questionType === 'single')?.id;
      const ai = (tool: string, op: string, params: Record<string, number>, body: unknown) => ({
        tool,
        op,
        params,
        body,
      });
      // In turn, so that a quota kept per tool, or for generation apart, lets more than 5 through.
      const calls = [
        ai('refine_course', 'refineCourse', { courseId }, { feedback: `Add an example (${ctx.runId})` }),
        ...(lesson !== undefined
          ? [ai('regenerate_lesson', 'regenerateLesson', { lessonId: lesson }, {})]
          : []),
        ai(
          'create_course_from_prompt',
          'generateCourse',
          {},
          {
            prompt: `A two-module course about knots (${ctx.runId})`,
            options: { moduleCount: 2 },
          },
        ),
        ...(question !== undefined
          ? [ai('regenerate_question', 'regenerateQuestion', { questionId: question }, {})]
          : []),
      ].filter((c) => offered.includes(c.tool));
      if (!calls.length) throw new Incomplete(`the key ${tail(key)} is offered no AI tool to call`);
      const made = () => ctx.spent.aiCallsByKey[tail(key)] ?? 0;
      const before = made();
      const log: string[] = [];
      ctx.allowAiCalls(key, AI_QUOTA_PER_KEY + 1);
      const send = async (c: (typeof calls)[number]) => {
        for (let attempt = 0; ; attempt++) {
          const e = await ctx.v2.callRaw(c.op, {
            params: c.params,
            body: c.body,
            headers,
            waitOut429: false,
          });
          // A short delay is the rate limit's, not the day's quota: waited out, as the suite does.
          const wait = e.status === 429 ? retryAfterOf(e.headers, messageOf(e)) : undefined;
          if (wait === undefined || wait > 60 || attempt >= 3) return e;
          await sleep(wait * 1000);
        }
      };
      for (let i = 0; made() <= AI_QUOTA_PER_KEY; i++) {
        const c = calls[i % calls.length] as (typeof calls)[number];
        const e = await send(c);
        if (e.status >= 300 && e.status !== 429)
          return judge(ctx.v2, c.op, e, [c.op === 'generateCourse' ? 202 : 200]);
        if (e.status !== 429) {
          log.push(c.tool);
          continue;
        }
        mustPass(judge429(ctx, c.op, e, undefined));
        const at = made();
        // Shared: once the quota is used, every other AI tool is refused too (these calls count for
        // nothing more: the day's quota is spent).
        for (const other of calls.filter((x) => x.tool !== c.tool)) {
          const o = await send(other);
          if (o.status < 300)
            return fail(
              `${c.tool} was refused (429) after ${at} AI calls of key ${tail(key)}, yet ${other.tool} went on: the quota is shared by generation and refinement`,
              evidenceOf(o, '429: the quota is used'),
            );
          mustPass(judge429(ctx, other.op, o, undefined));
        }
        return pass();
      }
      return fail(
        `${made()} AI calls by key ${tail(key)} succeeded in this run (${before} before this probe, then ${log.join(', ')}), none refused: seed 000 allows 5 per key a day, generation and refinement shared`,
      );
    },
  },
  // Last of all: its lockout refuses every v2 request from this address until it ends.
  {
    id: 'v2.limits.failed-logins',
    area: 'v2.limits',
    level: 'MUST',
    rules: ['000/rate-limits.auth', '000/rate-limits.retry-delay'],
    title:
      'wrong keys from one address are refused, past a threshold, with 429 MCP_AUTH_RATE_LIMITED: too many failed attempts, retry after N s',
    needs: { probeLimits: true },
    run: async (ctx) => {
      const budget = ctx.spent.failedLogins + BUDGET.failedLoginProbe;
      for (let i = 0; i < BUDGET.failedLoginProbe; i++) {
        ctx.spendFailedLogin(budget);
        const e = await ctx.v2.callRaw('searchCourses', {
          query: { query: 'a' },
          headers: { 'x-mcp-key': wrongKey(ctx) },
          waitOut429: false,
        });
        if (e.status === 401) continue;
        mustPass(judge429(ctx, 'searchCourses', e, 'MCP_AUTH_RATE_LIMITED'));
        const message = messageOf(e);
        // Seed 000: "message form: too many failed attempts, retry after <N>s".
        return /too many failed/i.test(message) && /retry after\s*\d+\s*(s|secs?|seconds?)\b/i.test(message)
          ? pass()
          : fail(
              `the message is "${message.slice(0, 160)}"`,
              evidenceOf(e, 'a message of the form: too many failed attempts, retry after <N>s'),
            );
      }
      throw new Incomplete(
        `no 429 after ${BUDGET.failedLoginProbe} wrong keys from this address: the threshold is above that (the seed does not show it)`,
      );
    },
  },
];
