// Runs the checks against a deployment: skips those whose needs the configuration does not meet,
// saying which flag would run them; turns a check that cannot reach a verdict into `incomplete`;
// reports a departure from one of the kit's assumed choices as a SHOULD of its own; reports progress
// as it goes; cleans up after itself; and gives the run one outcome.
import { type ConformanceConfig, Context, type Spent } from './context.ts';
import { Departure, Incomplete, Skipped } from './outcomes.ts';
import { sourceOf } from './rules.ts';
import type { Check, Result, Verdict } from './types.ts';

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

async function verdictOf(check: Check, ctx: Context): Promise<Verdict & { optIn?: string }> {
  const optIn = optInMissing(check, ctx);
  if (optIn) return { status: 'skip', reason: `not opted in (${optIn})`, optIn };
  const { keysBlocked } = ctx;
  if (keysBlocked && (check.needs?.mcpScope || check.needs?.readOnlyKey || check.needs?.roles))
    return {
      status: 'incomplete',
      reason: keysBlocked.message,
      ...(keysBlocked.retryAfter !== undefined ? { retryAfter: keysBlocked.retryAfter } : {}),
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
      };
    if (error instanceof Departure)
      return {
        status: 'fail',
        reason: error.message,
        ...(error.evidence ? { evidence: error.evidence } : {}),
      };
    return { status: 'fail', reason: `the check could not complete: ${(error as Error).message}` };
  }
}

export async function runChecks(
  checks: Check[],
  config: ConformanceConfig,
  onResult: (result: Result) => void = () => {},
): Promise<RunReport> {
  const started = Date.now();
  const ctx = new Context(config);
  const notes = await ctx.discoverKeys();
  const results: Result[] = [];
  const report = (result: Result) => {
    results.push(result);
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
    let verdict = await verdictOf(check, ctx);
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
  };
}

/**
 * The run's outcome: `failed` when a MUST failed; `incomplete` when none failed but some MUST did not
 * run or could not reach a verdict; `passed` only when every MUST ran and passed — but for the opt-in
 * ones not opted in (`--probe-limits`, `--tenant-key`, `--revoked-key`), which the reports list.
 */
export type Outcome = 'passed' | 'failed' | 'incomplete';

export function outcomeOf(report: RunReport): Outcome {
  const must = report.results.filter((r) => r.level === 'MUST');
  if (must.some((r) => r.status === 'fail')) return 'failed';
  if (must.some((r) => r.status !== 'pass' && !r.optIn)) return 'incomplete';
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

/** docs/conformance.md, "Exit codes": 0 passed, 1 a MUST failed, 3 incomplete (2 is a usage error). */
export const EXIT_CODES: Record<Outcome, number> = { passed: 0, failed: 1, incomplete: 3 };

export const exitCode = (report: RunReport) => EXIT_CODES[outcomeOf(report)];

/**
 * The MUST checks that did not reach a verdict, grouped by why (the flag that would run them): those
 * that make the run incomplete, or with `optIn`, those not opted in.
 */
export function unrun(
  report: RunReport,
  optIn = false,
): { reason: string; ids: string[]; retryAfter?: number }[] {
  const groups = new Map<string, { ids: string[]; retryAfter?: number }>();
  for (const r of report.results) {
    if (r.level !== 'MUST' || (r.status !== 'skip' && r.status !== 'incomplete')) continue;
    if (Boolean(r.optIn) !== optIn) continue;
    const reason =
      r.retryAfter !== undefined
        ? `blocked by the deployment's limits — retry after ${r.retryAfter} s`
        : (r.reason ?? '');
    const group = groups.get(reason) ?? { ids: [] };
    group.ids.push(r.id);
    if (r.retryAfter !== undefined) group.retryAfter = Math.max(group.retryAfter ?? 0, r.retryAfter);
    groups.set(reason, group);
  }
  return [...groups].map(([reason, g]) => ({ reason, ...g })).sort((a, b) => b.ids.length - a.ids.length);
}
