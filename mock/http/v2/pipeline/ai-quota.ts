// Step 8 (seed 000, "Limits": AI tools share 5 calls per key and 50 per tenant per day): checked
// before the call, counted once it succeeded (docs/adr-0002: past it, 429 MCP_RATE_LIMITED).
import type { Caller } from '../../../domain/access.ts';
import { aiQuotaRefusal } from '../../../domain/ai.ts';
import type { Failure } from './failure.ts';

export function checkAiQuota(
  caller: Caller,
  operation: { 'x-ai-quota'?: boolean },
  now: number,
): Failure | null {
  if (!operation['x-ai-quota']) return null;
  const refusal = aiQuotaRefusal(caller.tenant, caller.key.id, now);
  return refusal ? { status: 429, code: 'MCP_RATE_LIMITED', ...refusal } : null;
}
