// Runs the checks against a deployment: skips those whose needs the configuration does not meet,
// saying which flag would run them; turns a check that cannot reach a verdict into `incomplete`;
// reports a departure from one of the kit's assumed choices as a SHOULD of its own; reports progress
// as it goes; cleans up after itself; and gives the run one outcome.
import { type BaselineComparison, compareWithBaseline } from './baseline.ts';
import { type ConformanceConfig, Context, type Spent } from './context.ts';
import { Blocked, Departure, Incomplete, KnockOn, Skipped } from './outcomes.ts';
import { sourceOf } from './rules.ts';
import type { Check, LimitInfo, Result, Verdict } from './types.ts';

export interface RunReport {
  startedAt: string;
  durationMs: number;
  baseUrl: string;
  mcpUrl?: string;
  allowWrites: boolean;
  results: Result[];
  /** Problems of the run itself (a key refused, a fixture left behind), not verdicts. */
  notes: string[];
  requests: number;
  /** What the run spent of its budgets (docs/conformance.md, "Politeness"). */
  spent: Spent;
  /** `operationId status` pairs of v1 and v2 a check expected and got. */
  covered: string[];
  /**
   * Said before the run started, and kept with it: what the run will leave behind (the lockout of
   * this address by the failed-login probe of `--probe-limits`).
   */
  warnings?: string[];
  /** When the run ended with this address locked out of `/api/v2` (seed 000, Authentication: per-IP limit): until when. */
  lockedOutUntil?: string;
  /** With a baseline (`--baseline`): what is newly failing, what is known, what it lists that now passes. */
  baseline?: BaselineComparison;
  /** The deployment is the kit's mock (its `GET /__admin/health` answers): the reports say how to clear its limits. */
  mock?: boolean;
}

/**
 * What to tell before a run starts: with `--probe-limits`, that its last probe locks this client's
 * address out of `/api/v2` (seed 000, Authentication: "per-IP limit on failed authentication
 * attempts"; the seed does not show for how long, the kit's mock for 5 minutes, docs/mock.md).
 */
export function startWarnings(config: ConformanceConfig): string[] {
  return config.probeLimits
    ? [
        `--probe-limits: the run's last probe sends wrong keys until the deployment locks this address out of ${config.baseUrl.replace(/\/+$/, '')}/api/v2 (the failed-login limit, seed 000); for about 5 minutes after the run (as long as the deployment's 429 says; the lmskit mock's lockout is 5 minutes), every /api/v2 request from this machine — the tool server's and yours too — gets 429 MCP_AUTH_RATE_LIMITED`,
      ]
    : [];
}

/** `--only`: a substring of the id, or a glob with `*`. */
export function matches(id: string, pattern: string | undefined): boolean {
  if (!pattern) return true;
  return pattern.split(',').some((p) => {
    if (!p.includes('*')) return id.includes(p);
    const re = new RegExp(
      `^${p
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    return re.test(id);
  });
}

/** The opt-in a check needs and the configuration does not give: its flag. */
function optInMissing(check: Check, ctx: Context): string | null {
  const needs = check.needs ?? {};
  if (needs.tenantKey && !ctx.config.tenantKeys?.[needs.tenantKey])
    return `--tenant-key ${needs.tenantKey}=KEY`;
  if (needs.revokedKey && !ctx.config.revokedKey) return '--revoked-key KEY';
  if (needs.probeLimits && !ctx.config.probeLimits) return '--probe-limits';
  if (needs.uploadDir && !ctx.config.uploadDir) return '--upload-dir DIR';
  return null;
}

function unmet(check: Check, ctx: Context): string | null {
  const needs = check.needs ?? {};
  for (const role of needs.roles ?? []) {
    if (ctx.rolesWithoutKeys().includes(role)) continue;
    if (!ctx.roleKey(role))
      return ctx.config.roleKeys?.[role]
        ? `the ${role} key given was refused (--role-key ${role}=KEY)`
        : `no key of a ${role} given (--role-key ${role}=KEY)`;
  }
  if (needs.apiKey && !ctx.config.apiKey) return 'no site API key given (--api-key)';
  if (needs.mcpScope && !ctx.key(needs.mcpScope))
    return `no MCP key with the ${needs.mcpScope} scope given (--mcp-key)`;
  if (needs.readOnlyKey && !ctx.readOnlyKey()) return 'no MCP key with the read scope only given (--mcp-key)';
  if (needs.writes && !ctx.config.allowWrites) return 'writes are not allowed (--allow-writes)';
  if (needs.mcpUrl && !ctx.config.mcpUrl) return 'no MCP tool server given (--mcp-url)';
  for (const name of needs.config ?? []) {
    if ((ctx.config as unknown as Record<string, unknown>)[name] === undefined)
      return `no ${name} configured (${CONFIG_FLAGS[name] ?? `"${name}" in --config`})`;
  }
  return null;
}

const CONFIG_FLAGS: Record<string, string> = { expertUserId: '--expert-user', chainId: '--chain' };

/** A failure of a check's own, from what it threw. */
function failureOf(error: unknown): Verdict {
  if (error instanceof Departure)
    return {
      status: 'fail',
      reason: error.message,
      ...(error.evidence ? { evidence: error.evidence } : {}),
    };
  return { status: 'fail', reason: `the check could not complete: ${(error as Error).message}` };
}

/**
 * Where the failures of shared fixtures count: the check that first met one and reported it as a MUST
 * failure. A knock-on names it (`blockedBy`) and is not judged; one whose cause did not report it as
 * a MUST failure (a SHOULD, or a check that went on without the fixture) reports it itself, and
 * later knock-ons of the same cause name this check instead.
 */
function knockOnVerdict(
  error: KnockOn,
  check: Check,
  results: Map<string, Result>,
  countedAt: Map<string, string>,
): Verdict {
  const cause = countedAt.get(error.blamed) ?? error.blamed;
  const counted = results.get(cause);
  if (counted?.level === 'MUST' && counted.status === 'fail')
    return {
      status: 'incomplete',
      blockedBy: cause,
      reason: `blocked by ${cause}: ${error.error.message}`,
    };
  if (check.level === 'MUST') countedAt.set(error.blamed, check.id);
  return failureOf(error.error);
}

async function verdictOf(
  check: Check,
  ctx: Context,
  results: Map<string, Result>,
  countedAt: Map<string, string>,
): Promise<Verdict & { optIn?: string }> {
  // `--role-key ROLE=none`: the deployment gives no keys to ROLE (seed 000, Resources > MCP key: "the
  // user who created it (an admin)"), so a check acting as ROLE does not apply; like an opt-in not
  // given, it is listed and does not keep the run from passing.
  const none = ctx.rolesWithoutKeys();
  const roles = check.needs?.roles ?? [];
  const without =
    check.needs?.eachRole && roles.some((r) => !none.includes(r))
      ? undefined
      : roles.find((r) => none.includes(r));
  if (without)
    return {
      status: 'skip',
      reason: `not applicable: the deployment gives no keys to ${without}`,
      optIn: `--role-key ${without}=none`,
    };
  const optIn = optInMissing(check, ctx);
  if (optIn) return { status: 'skip', reason: `not opted in (${optIn})`, optIn };
  const { keysBlocked } = ctx;
  if (keysBlocked && (check.needs?.mcpScope || check.needs?.readOnlyKey || check.needs?.roles))
    return {
      status: 'incomplete',
      reason: keysBlocked.message,
      ...(keysBlocked.retryAfter !== undefined ? { retryAfter: keysBlocked.retryAfter } : {}),
      ...(keysBlocked instanceof Blocked ? { limit: keysBlocked.limit } : {}),
    };
  const why = unmet(check, ctx);
  if (why) return { status: 'skip', reason: why };
  try {
    return await check.run(ctx);
  } catch (error) {
    if (error instanceof Skipped) return { status: 'skip', reason: error.message };
    if (error instanceof Incomplete)
      return {
        status: 'incomplete',
        reason: error.message,
        ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
        ...(error instanceof Blocked ? { limit: error.limit } : {}),
      };
    if (error instanceof KnockOn) return knockOnVerdict(error, check, results, countedAt);
    return failureOf(error);
  }
}

export async function runChecks(
  checks: Check[],
  config: ConformanceConfig,
  onResult: (result: Result) => void = () => {},
): Promise<RunReport> {
  const started = Date.now();
  const ctx = new Context(config);
  const warnings = startWarnings(config);
  const notes = await ctx.discoverKeys();
  const results: Result[] = [];
  const byId = new Map<string, Result>();
  const countedAt = new Map<string, string>();
  const report = (result: Result) => {
    results.push(result);
    byId.set(result.id, result);
    onResult(result);
  };
  for (const check of checks) {
    const { run: _run, needs: _needs, assumption, ...about } = check;
    const base = { ...about, source: sourceOf(check.rules, assumption) };
    if (!matches(check.id, config.only) || (config.skip && matches(check.id, config.skip))) {
      report({ ...base, status: 'skip', reason: 'not selected (--only, --skip)', durationMs: 0 });
      continue;
    }
    const t0 = Date.now();
    ctx.currentCheck = check.id;
    let verdict = await verdictOf(check, ctx, byId, countedAt);
    ctx.currentCheck = undefined;
    const departures = [...ctx.v1.takeNotes(), ...ctx.v2.takeNotes()];
    const summary = departures.map((d) => d.text).join('; ');
    if (departures.length && check.level === 'SHOULD' && verdict.status === 'pass')
      verdict = { status: 'fail', reason: summary, evidence: departures[0]?.evidence };
    report({ ...base, ...verdict, durationMs: Date.now() - t0 });
    if (departures.length && check.level === 'MUST') {
      report({
        ...base,
        id: `${check.id}.assumed`,
        level: 'SHOULD',
        title: `${check.title} — in the form the kit assumed`,
        source: `assumed by the kit, not stated by the seeds (${base.source})`,
        status: 'fail',
        reason: `${summary} — assumed by the kit, not stated by the seeds`,
        ...(departures[0] ? { evidence: departures[0].evidence } : {}),
        durationMs: 0,
      });
    }
  }
  notes.push(...(await ctx.runCleanups()).map((p) => `cleanup: ${p}`));
  const lockout = ctx.http.lockoutEnds(ctx.v2.base);
  const limited = lockout !== undefined || results.some((r) => r.limit);
  return {
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    baseUrl: config.baseUrl,
    ...(config.mcpUrl ? { mcpUrl: config.mcpUrl } : {}),
    allowWrites: config.allowWrites,
    results,
    notes,
    requests: ctx.http.requests,
    spent: structuredClone(ctx.spent),
    covered: [
      ...[...ctx.v1.covered].map((c) => `v1 ${c}`),
      ...[...ctx.v2.covered].map((c) => `v2 ${c}`),
    ].sort(),
    ...(warnings.length ? { warnings } : {}),
    ...(config.baseline ? { baseline: compareWithBaseline(results, config.baseline) } : {}),
    ...(lockout !== undefined ? { lockedOutUntil: new Date(lockout).toISOString() } : {}),
    ...(limited && (await isMock(config.baseUrl, config.timeoutMs)) ? { mock: true } : {}),
  };
}

/**
 * Whether the deployment is the kit's mock: its admin API's health (docs/mock.md, the admin API;
 * needs no token, and is no request to the platform's APIs, so no budget counts it). Asked only when
 * a limit stopped a check, to tell how to clear it.
 */
async function isMock(baseUrl: string, timeoutMs = 5000): Promise<boolean> {
  try {
    const answer = await fetch(`${baseUrl.replace(/\/+$/, '')}/__admin/health`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await answer.json()) as { status?: unknown; version?: unknown };
    return answer.ok && body.status === 'ok' && typeof body.version === 'string';
  } catch {
    return false;
  }
}

/**
 * A limit in a sentence for the summaries: which limit (seed 000, Limits; Authentication), when it
 * ends, and, against the kit's mock, how to clear it (docs/mock.md: the clock, Reset).
 */
export function limitText(limit: LimitInfo, retryAfter: number | undefined, mock = false): string {
  const inS = retryAfter !== undefined ? ` (in ${retryAfter} s)` : '';
  const at = limit.resetsAt ?? '?';
  // The tenant's limits reset (admin API, resetLimits) clears the day's AI calls and the rate buckets
  // and nothing else; the failed logins go only with a reset of the whole state.
  const resetLimits =
    "POST /__admin/tenants/{tenantId}/limits/reset (the day's AI calls and rate buckets of the tenant's keys, nothing else; tenant demo on the demo seed)";
  const clearQuota = mock
    ? `; on the lmskit mock, clear it now with POST /__admin/clock/advance {"seconds": ${retryAfter ?? 86400}} (its clock past midnight; the keys minted stay), ${resetLimits} or POST /__admin/reset (the whole state back, minted keys gone)`
    : '';
  const clearRate = mock ? `; on the lmskit mock, clear it now with ${resetLimits}` : '';
  const clearCounters = mock
    ? '; on the lmskit mock, clear it now with POST /__admin/reset (the whole state back, minted keys gone)'
    : '';
  switch (limit.kind) {
    case 'ai-quota-key':
      return `the key's daily AI quota is used up (seed 000, Limits: 5 AI calls per key a day) — it resets at UTC midnight, ${at} by the deployment's clock${inS}${clearQuota}`;
    case 'ai-quota-tenant':
      return `the workspace's daily AI quota is used up (seed 000, Limits: 50 AI calls per tenant a day) — it resets at UTC midnight, ${at} by the deployment's clock${inS}${clearQuota}`;
    case 'rate':
      return `the key's rate limit (seed 000, Limits) — it lets requests through again at ${at}${inS}${clearRate}`;
    case 'failed-logins':
      return `this address is locked out of /api/v2 after failed logins (seed 000, Authentication: 429 MCP_AUTH_RATE_LIMITED) until ${at}${inS}${clearCounters}`;
    default:
      return `blocked by the deployment's limits — retry after ${retryAfter ?? '?'} s`;
  }
}

/**
 * The run's outcome: `failed` when a MUST failed; `incomplete` when none failed but some MUST did not
 * run or could not reach a verdict; `passed` only when every MUST ran and passed — but for the opt-in
 * ones not opted in (`--probe-limits`, `--tenant-key`, `--revoked-key`), which the reports list.
 */
export type Outcome = 'passed' | 'failed' | 'incomplete';

export function outcomeOf(report: RunReport): Outcome {
  // With a baseline, a failure it lists does not count, nor do the checks blocked by one.
  const known = new Set(report.baseline?.known ?? []);
  const must = report.results.filter((r) => r.level === 'MUST');
  if (must.some((r) => r.status === 'fail' && !known.has(r.id))) return 'failed';
  const excused = (r: Result) => known.has(r.id) || Boolean(r.blockedBy && known.has(r.blockedBy));
  if (must.some((r) => r.status !== 'pass' && !r.optIn && !excused(r))) return 'incomplete';
  return 'passed';
}

/** What the run spent of the deployment's budgets, in one line for the reports. */
export function spentText(spent: Spent): string {
  const byKey = Object.entries(spent.aiCallsByKey)
    .map(([key, n]) => `${n} by ${key}`)
    .join(', ');
  return [
    `${spent.failedLogins} failed logins`,
    `${spent.aiCalls} AI calls${byKey ? ` (${byKey})` : ''}`,
    ...(spent.rateLimitRequests ? [`${spent.rateLimitRequests} requests to reach the rate limit`] : []),
  ].join(', ');
}

/** docs/conformance.md, "Outcome and exit code": 0 passed, 1 a MUST failed, 3 incomplete (2, a usage or configuration error found before any check, is main.ts's). */
export const EXIT_CODES: Record<Outcome, number> = { passed: 0, failed: 1, incomplete: 3 };

export const exitCode = (report: RunReport) => EXIT_CODES[outcomeOf(report)];

/**
 * The MUST checks that did not reach a verdict, grouped by why (the flag that would run them): those
 * that make the run incomplete, or with `optIn`, those not opted in.
 */
export function unrun(
  report: RunReport,
  optIn = false,
): { reason: string; ids: string[]; retryAfter?: number; blockedBy?: string; limit?: LimitInfo }[] {
  const groups = new Map<
    string,
    { ids: string[]; retryAfter?: number; blockedBy?: string; limit?: LimitInfo }
  >();
  for (const r of report.results) {
    if (r.level !== 'MUST' || (r.status !== 'skip' && r.status !== 'incomplete')) continue;
    if (Boolean(r.optIn) !== optIn) continue;
    // One group per cause: the check a knock-on is blocked by, the limit (its kind), or the reason.
    const key = r.blockedBy
      ? `blocked by ${r.blockedBy}`
      : r.limit
        ? `limit ${r.limit.kind}`
        : r.retryAfter !== undefined
          ? 'limit unknown'
          : (r.reason ?? '');
    const group = groups.get(key) ?? { ids: [] };
    group.ids.push(r.id);
    if (r.retryAfter !== undefined) group.retryAfter = Math.max(group.retryAfter ?? 0, r.retryAfter);
    if (r.blockedBy) group.blockedBy = r.blockedBy;
    if (r.limit && (!group.limit?.resetsAt || (r.limit.resetsAt ?? '') > group.limit.resetsAt))
      group.limit = r.limit;
    groups.set(key, group);
  }
  return [...groups]
    .map(([key, g]) => ({
      reason: g.blockedBy
        ? `blocked by ${g.blockedBy} (failed): a fixture it made or found is needed`
        : g.limit || g.retryAfter !== undefined
          ? limitText(g.limit ?? { kind: 'unknown' }, g.retryAfter, report.mock)
          : key,
      ...g,
    }))
    .sort(
      (a, b) => Number(Boolean(b.blockedBy)) - Number(Boolean(a.blockedBy)) || b.ids.length - a.ids.length,
    );
}

/**
 * The failures that are causes: the MUST failures other checks are blocked by, with those checks,
 * the cause blocking most first. What a reader fixes first.
 */
export function causes(report: RunReport): { id: string; blocks: string[] }[] {
  const blocks = new Map<string, string[]>();
  for (const r of report.results)
    if (r.blockedBy) blocks.set(r.blockedBy, [...(blocks.get(r.blockedBy) ?? []), r.id]);
  return [...blocks]
    .map(([id, list]) => ({ id, blocks: list }))
    .sort((a, b) => b.blocks.length - a.blocks.length);
}
