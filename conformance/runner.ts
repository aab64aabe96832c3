// Runs the checks against a deployment: skips those whose needs the
// configuration does not meet, says which, reports progress as it goes, and cleans up after itself.
import { type ConformanceConfig, Context } from './context.ts';
import type { Check, Result } from './types.ts';

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

function unmet(check: Check, ctx: Context): string | null {
  const needs = check.needs ?? {};
  if (needs.apiKey && !ctx.config.apiKey) return 'no site API key given (--api-key)';
  if (needs.mcpScope && !ctx.key(needs.mcpScope))
    return `no MCP key with the ${needs.mcpScope} scope given (--mcp-key)`;
  if (needs.writes && !ctx.config.allowWrites) return 'writes are not allowed (--allow-writes)';
  if (needs.mcpUrl && !ctx.config.mcpUrl) return 'no MCP tool server given (--mcp-url)';
  for (const name of needs.config ?? []) {
    if ((ctx.config as unknown as Record<string, unknown>)[name] === undefined)
      return `no ${name} configured`;
  }
  return null;
}

export async function runChecks(
  checks: Check[],
  config: ConformanceConfig,
  onResult: (result: Result, index: number, total: number) => void = () => {},
): Promise<RunReport> {
  const started = Date.now();
  const ctx = new Context(config);
  const notes = await ctx.discoverKeys();
  const selected = checks.filter(
    (c) => matches(c.id, config.only) && !(config.skip && matches(c.id, config.skip)),
  );
  const results: Result[] = [];
  for (const [i, check] of selected.entries()) {
    const t0 = Date.now();
    const why = unmet(check, ctx);
    let verdict: Awaited<ReturnType<Check['run']>>;
    if (why) verdict = { status: 'skip', reason: why };
    else {
      try {
        verdict = await check.run(ctx);
      } catch (error) {
        verdict = { status: 'fail', reason: `the check could not complete: ${(error as Error).message}` };
      }
    }
    const result: Result = {
      id: check.id,
      area: check.area,
      level: check.level,
      source: check.source,
      title: check.title,
      ...verdict,
      durationMs: Date.now() - t0,
    };
    results.push(result);
    onResult(result, i, selected.length);
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
  };
}

/** Exit code 1 when a MUST failed, 0 otherwise (docs/conformance.md, Levels and verdicts). */
export const exitCode = (report: RunReport) =>
  report.results.some((r) => r.level === 'MUST' && r.status === 'fail') ? 1 : 0;
