// Probes of a key's scope and rank (seed 000, "Write tools: need write scope"; Permission
// identifiers: role hierarchy): the read-only key on every write operation is refused with 403, and
// the key owner unbanning themselves (not below their own role) is refused with 403. The requests
// are harmless (./harmless.ts); they run with the capabilities checks (../v2/access.ts).
import { type Api, contractOf, evidenceOf, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import type { Check, Verdict } from '../../types.ts';
import { codeOf } from '../common/body.ts';
import { keyHeaders, ownerId } from '../common/discover.ts';
import { describe, judge, mustPass } from '../common/judge.ts';
import { harmless } from './harmless.ts';
import { operationIds, probe, specOf } from './probe.ts';

/** Seed 000: write tools need the write scope (403); the code `WRITE_SCOPE_REQUIRED` is the kit's. */
function scopeRefused(api: Api, operationId: string, e: Exchange): Verdict {
  mustPass(judge(api, operationId, e, [403]));
  if (codeOf(e) !== 'WRITE_SCOPE_REQUIRED')
    api.noteAssumed(
      [
        `${describe(api, operationId)} with a read-only key answered code ${JSON.stringify(codeOf(e))} where the kit assumed WRITE_SCOPE_REQUIRED`,
      ],
      evidenceOf(e, '403 WRITE_SCOPE_REQUIRED'),
    );
  return pass();
}

export const scopeChecks: Check[] = operationIds('v2')
  .filter((id) => contractOf('v2').get(id)?.node['x-scope'] === 'write')
  .map((operationId) => {
    const assumed = contractOf('v2').get(operationId)?.node['x-assumed-scope'] === true;
    return probe({
      id: `v2.scope.read-key.${operationId}`,
      area: 'v2.scope',
      level: assumed ? 'SHOULD' : 'MUST',
      rules: [
        operationId === 'getGenerationJob' ? '000/scope.job-status' : '000/scope.write',
        '000/errors.shape',
      ],
      ...(assumed
        ? {
            assumption:
              'the AI tools other than get_course_generation_status need the write scope (x-assumed-scope)',
          }
        : {}),
      title: `${specOf('v2')(operationId)} with a read-only key is refused with 403`,
      needs: { readOnlyKey: true },
      api: 'v2',
      operationId,
      request: (ctx) => ({
        ...harmless('v2', operationId)(ctx),
        headers: { 'x-mcp-key': ctx.readOnlyKey()?.key ?? '' },
      }),
      judge: (api, e) => scopeRefused(api, operationId, e),
    });
  });

/**
 * Seed 000: ban, unban and e-mail change need the target to rank below the caller. Unbanning the key
 * owner themselves is refused (403); a deployment that ignores the rule unbans a user who is not
 * banned, which changes nothing.
 */
export const roleHierarchyCheck: Check = probe({
  id: 'v2.permission.role-hierarchy',
  area: 'v2.scope',
  level: 'MUST',
  rules: ['000/permission.role-hierarchy', '000/errors.shape'],
  title: 'unbanning the key owner themselves (not below their own role) is refused with 403 {error, code}',
  needs: { mcpScope: 'write' },
  api: 'v2',
  operationId: 'unbanUser',
  request: (ctx) => {
    const headers = keyHeaders(ctx, 'unbanUser');
    return { params: { userId: ownerId(ctx, headers) }, headers };
  },
  judge: (api, e) => judge(api, 'unbanUser', e, [403]),
});
