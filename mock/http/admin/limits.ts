// The tenant's limits in the admin API (tag Tenants): the per-key rate limit of /api/v2, counted by
// the pipeline's rate limiter (wall clock, this run only; a shared store's for every replica), and the daily AI quota, which is state
// (logged, in snapshots, on the virtual clock's UTC day) and so is reset by a command.
import type { PathOperations } from '../../../generated/admin.ts';
import { AI_CALLS_PER_KEY, AI_CALLS_PER_TENANT } from '../../domain/ai.ts';
import { toIso, utcDay } from '../../domain/clock.ts';
import type { Platform } from '../../domain/platform.ts';
import type { TenantState } from '../../domain/tenant-state.ts';
import { type Handlers, ok } from '../typed-handlers.ts';
import type { RateLimiter } from '../v2/pipeline/counters.ts';

export function limitsHandlers(
  platform: Platform,
  rate: RateLimiter,
): Pick<Handlers<PathOperations>, 'getLimits' | 'resetLimits'> {
  const view = async (t: TenantState) => {
    const day = utcDay(platform.now());
    // A count from an earlier day is spent: the quota starts afresh at 00:00 UTC (seed 000, Limits).
    const usage = t.aiUsage.day === day ? t.aiUsage : { perKey: {} as Record<string, number>, tenant: 0 };
    return {
      day: toIso(day * 86_400).slice(0, 10),
      requestsPerMinute: rate.perMinute,
      aiCallsPerKeyPerDay: AI_CALLS_PER_KEY,
      aiCallsPerTenantPerDay: AI_CALLS_PER_TENANT,
      aiCallsToday: usage.tenant,
      keys: await Promise.all(
        [...t.mcpKeys.values()]
          .filter((k) => k.revokedAt === null)
          .map(async (k) => ({
            keyId: k.id,
            prefix: k.prefix,
            userId: k.userId,
            requestsInWindow: await rate.held(k.id),
            aiCallsToday: usage.perKey[k.id] ?? 0,
          })),
      ),
    };
  };
  return {
    getLimits: async (_req, _res, input) => ok(await view(platform.tenant(input.params.tenantId))),
    resetLimits: async (_req, _res, input) => {
      platform.run('resetAiQuota', { tenantId: input.params.tenantId });
      const t = platform.tenant(input.params.tenantId);
      await rate.reset(t.mcpKeys.keys());
      return ok(await view(t));
    },
  };
}
