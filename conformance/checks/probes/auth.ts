// Probes of the keys (seed 001, Authentication; seed 000, Authentication 1 and 5): every v1 and v2
// operation without a key is refused — v1 with 401 or 403 (the seed does not show which; the kit
// chose 401 {status, message}), v2 with 401 — and one request per API with a wrong key, each counted
// against the run's budget of failed logins. The requests are harmless (./harmless.ts). They run
// after every other check but the limits: should a deployment count them against a per-IP limit,
// nothing else of the run is blocked by it.
import { type Api, evidenceOf, fail, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import type { Check, Verdict } from '../../types.ts';
import { describe, judgeUnauthorized } from '../common/judge.ts';
import { harmless } from './harmless.ts';
import { operationIds, probe, specOf } from './probe.ts';

/** Seed 001 does not show the refusal: 401 or 403 keep the rule; 401 `{status, message}` is the kit's. */
function v1Refused(api: Api, operationId: string, e: Exchange): Verdict {
  const want = `401 (or 403) ${describe(api, operationId)}: a request without a valid X-API-KEY is refused`;
  if (e.status !== 401 && e.status !== 403)
    return fail(`answered ${e.status} to a request without a valid X-API-KEY`, evidenceOf(e, want));
  api.cover(operationId, e.status);
  const b = e.body as { status?: unknown; message?: unknown } | undefined;
  if (e.status !== 401 || b?.status !== 401 || typeof b.message !== 'string')
    api.noteAssumed(
      [
        `${describe(api, operationId)} without a key answered ${e.status} ${e.text.slice(0, 80)} where the kit assumed 401 {status: 401, message}`,
      ],
      evidenceOf(e, '401 {status: 401, message}'),
    );
  return pass();
}

export const noKeyChecks: Check[] = [
  ...operationIds('v1').map((operationId) =>
    probe({
      id: `v1.auth.no-key.${operationId}`,
      area: 'v1.auth',
      level: 'MUST',
      rules: ['001/auth.key-required'],
      title: `${specOf('v1')(operationId)} without X-API-KEY is refused (401 or 403) and changes nothing`,
      api: 'v1',
      operationId,
      request: harmless('v1', operationId),
      judge: (api, e) => v1Refused(api, operationId, e),
    }),
  ),
  ...operationIds('v2').map((operationId) =>
    probe({
      id: `v2.auth.no-key.${operationId}`,
      area: 'v2.auth',
      level: 'MUST',
      rules: ['000/auth.key-required', '000/errors.unauthorized', '000/licence.none-needs-valid-key'],
      title: `${specOf('v2')(operationId)} without X-MCP-Key answers 401`,
      api: 'v2',
      operationId,
      request: harmless('v2', operationId),
      judge: (api, e) => judgeUnauthorized(api, operationId, e, ' without a valid X-MCP-Key'),
    }),
  ),
];

/** One request with a wrong key per API: each counts against the run's budget of failed logins. */
export const wrongKeyChecks: Check[] = [
  probe({
    id: 'v1.auth.wrong-key',
    area: 'v1.auth',
    level: 'MUST',
    rules: ['001/auth.key-required', '001/auth.invalid-key'],
    title: 'GET /courses with a wrong X-API-KEY is refused (401 or 403)',
    api: 'v1',
    operationId: 'listCourses',
    request: (ctx) => {
      ctx.spendFailedLogin();
      return { headers: { 'x-api-key': `wrong-${ctx.runId}` } };
    },
    judge: (api, e) => v1Refused(api, 'listCourses', e),
  }),
  probe({
    id: 'v2.auth.wrong-key',
    area: 'v2.auth',
    level: 'MUST',
    rules: [
      '000/auth.key-required',
      '000/auth.invalid-key',
      '000/errors.unauthorized',
      '000/licence.none-needs-valid-key',
    ],
    title: 'GET /api/v2/courses with a wrong X-MCP-Key answers 401',
    api: 'v2',
    operationId: 'searchCourses',
    request: (ctx) => {
      ctx.spendFailedLogin();
      return { query: { query: 'a' }, headers: { 'x-mcp-key': `lmcp_${'x'.repeat(43)}` } };
    },
    judge: (api, e) => judgeUnauthorized(api, 'searchCourses', e, ' without a valid X-MCP-Key'),
  }),
];
