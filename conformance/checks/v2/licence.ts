// Licence states, revoked keys and the scopes of keys (seed 000, Resources > MCP key, Tenant
// restrictions; States and transitions > MCP key; Authentication 4-6; Errors). A licence state needs
// a key of a tenant configured that way (`--tenant-key read|none|no-ai=KEY`, issued with read and
// write), a revocation a revoked key (`--revoked-key KEY`, of the owner of the --mcp-key keys): opt-ins.
// Every request these checks send is harmless (../probes/harmless.ts): its target does not exist or
// its body is invalid, so a deployment that ignored the licence would answer 404 or 400 and change
// nothing. The scopes of the keys given are checked in every run.
import { type Context, contractOf, evidenceOf, fail, type KeyInfo, pass, toolsOf } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check, Verdict } from '../../types.ts';
import { codeOf, messageOf } from '../common/body.ts';
import { judge, mustPass } from '../common/judge.ts';
import { tail } from '../common/keys.ts';
import { AI_TOOLS, READ_TOOLS, WRITE_TOOLS } from '../common/tools.ts';
import { harmless } from '../probes/harmless.ts';

/** The seven write tools: the write scope's tools but the AI ones, which the licence treats apart. */
const PLAIN_WRITE_TOOLS = WRITE_TOOLS.filter((t) => !AI_TOOLS.includes(t));

/** The v2 operations with a harmless request, by what they need of the licence and the key. */
const OPS = [...contractOf('v2')].map(([id, op]) => ({
  id,
  scope: op.node['x-scope'] as 'read' | 'write',
  ai: op.node['x-licence']?.mcpAiAccess === true,
}));
/** Read operations (getCapabilities apart): what the read tools call. */
const READ_OPS = OPS.filter((o) => o.scope === 'read' && !o.ai && o.id !== 'getCapabilities').map(
  (o) => o.id,
);
/** What the seven write tools call. */
const WRITE_OPS = OPS.filter((o) => o.scope === 'write' && !o.ai).map((o) => o.id);
/** What the seven AI tools call (seed 000: they need mcpAccess full and mcpAiAccess true). */
const AI_OPS = OPS.filter((o) => o.ai).map((o) => o.id);

/** The key of the tenant in that licence state (the runner skips the check when none is given). */
const tenantKey = (ctx: Context, state: 'read' | 'none' | 'no-ai') =>
  ctx.config.tenantKeys?.[state] as string;

/** Sends an operation's harmless request (an unknown target, an invalid body) with that key. */
const sendHarmless = (ctx: Context, operationId: string, key: string) =>
  ctx.v2.callRaw(operationId, { ...harmless('v2', operationId)(ctx), headers: { 'x-mcp-key': key } });

/** Each operation refused with 403 (and, when given, this code), the body as documented. */
async function refusedEach(
  ctx: Context,
  key: string,
  operationIds: string[],
  code: string | undefined,
  why: string,
): Promise<Verdict> {
  for (const operationId of operationIds) {
    const e = await sendHarmless(ctx, operationId, key);
    const want = `403${code ? ` ${code}` : ''}: ${why}`;
    if (e.status === 401) ctx.spent.failedLogins++;
    if (e.status !== 403)
      return fail(`${operationId} answered ${e.status}, not 403: ${why}`, evidenceOf(e, want));
    mustPass(judge(ctx.v2, operationId, e, [403]));
    if (code && codeOf(e) !== code)
      return fail(`${operationId} answered 403 with code ${JSON.stringify(codeOf(e))}`, evidenceOf(e, want));
  }
  return pass();
}

/** The capabilities of a key, which must be 200 as documented. */
async function capabilitiesOf(ctx: Context, key: string): Promise<{ e: Exchange; info?: KeyInfo }> {
  const e = await ctx.v2.call('getCapabilities', { headers: { 'x-mcp-key': key } });
  const verdict = judge(ctx.v2, 'getCapabilities', e, [200]);
  return verdict.status === 'pass' ? { e, info: { key, ...(e.body as Omit<KeyInfo, 'key'>) } } : { e };
}

/**
 * Seed 000, Authentication 5: a revoked key gets 401; the body is none (the text) or one with `code:
 * UNAUTHORIZED`. (Looser than ../common/judge.ts `judgeUnauthorized`, which also wants `error` a
 * string: `messageOf` always yields one.)
 */
function revokedRefused(ctx: Context, operationId: string, e: Exchange): Verdict {
  const want = '401, no body or {error, code: "UNAUTHORIZED"}';
  if (e.status !== 401) return fail(`the revoked key was answered ${e.status}`, evidenceOf(e, want));
  if (e.text && !(typeof messageOf(e) === 'string' && codeOf(e) === 'UNAUTHORIZED'))
    return fail(`the 401 body is ${e.text.slice(0, 100)}`, evidenceOf(e, want));
  ctx.v2.cover(operationId, 401);
  return pass();
}

/** The revoked key's capabilities, asked once per run (each request with it is a failed login). */
const revokedCapabilities = (ctx: Context) =>
  ctx.once('licence.revokedCapabilities', async () => {
    ctx.spendFailedLogin();
    return ctx.v2.call('getCapabilities', { headers: { 'x-mcp-key': ctx.config.revokedKey as string } });
  });

/**
 * Whether a key may call an operation: refused (401, 403) or failing (5xx) it may not; any other
 * answer (a 404 for the unknown target of a harmless request, a 400 for its invalid body) it may.
 */
const notRefused = (operationId: string, k: KeyInfo, e: Exchange, what: string): Verdict | null =>
  e.status === 401 || e.status === 403 || e.status >= 500
    ? fail(
        `key ${tail(k.key)} (scopes ${JSON.stringify(k.scopes)}, tier ${k.tier}) is offered ${toolsOf(operationId).join(', ')}, yet ${operationId} answered ${e.status}`,
        evidenceOf(e, `not refused: ${what}`),
      )
    : null;

/** The tools of `tools` that another key of the same owner is offered and this one is not. */
function missingAgainstSameOwner(ctx: Context, k: KeyInfo, tools: string[]): string[] {
  const others = ctx.allKeys().filter((o) => o.key !== k.key && o.user.id === k.user.id);
  return [...new Set(others.flatMap((o) => o.tools))].filter(
    (t) => tools.includes(t) && !k.tools.includes(t),
  );
}

export const licenceChecks: Check[] = [
  // --- The scopes of the keys given (every run) ------------------------------------------------
  {
    id: 'v2.keys.scope-read',
    area: 'v2.keys',
    level: 'MUST',
    rules: ['000/keys.scope-read'],
    title:
      "a read-only key is offered every read tool another key of its owner is offered, and each read tool's backend call is not refused",
    needs: { readOnlyKey: true },
    run: async (ctx) => {
      const k = ctx.readOnlyKey() as KeyInfo;
      const missing = missingAgainstSameOwner(ctx, k, READ_TOOLS);
      if (missing.length)
        return fail(
          `the read-only key ${tail(k.key)} is not offered ${missing.join(', ')}, which another key of its owner (user ${k.user.id}) is: the read scope covers all read tools`,
        );
      const offered = READ_OPS.filter((id) => toolsOf(id).some((t) => k.tools.includes(t)));
      if (!offered.length) throw new Incomplete(`the read-only key ${tail(k.key)} is offered no read tool`);
      for (const operationId of offered) {
        const e = await sendHarmless(ctx, operationId, k.key);
        const refused = notRefused(operationId, k, e, 'the read scope covers all read tools');
        if (refused) return refused;
      }
      return pass();
    },
  },
  {
    id: 'v2.keys.scope-write',
    area: 'v2.keys',
    level: 'MUST',
    rules: ['000/keys.scope-write'],
    title:
      "on tier full, a write key is offered the read and write tools another key of its owner is offered, and each write tool's backend call is not refused",
    needs: { mcpScope: 'write' },
    run: async (ctx) => {
      const k = ctx.key('write') as KeyInfo;
      if (k.tier !== 'full')
        throw new Incomplete(`the write key ${tail(k.key)} is of a tenant at tier ${k.tier}, not full`);
      const missing = missingAgainstSameOwner(ctx, k, [...READ_TOOLS, ...PLAIN_WRITE_TOOLS]);
      if (missing.length)
        return fail(
          `the write key ${tail(k.key)} is not offered ${missing.join(', ')}, which another key of its owner (user ${k.user.id}) is: the write scope adds the write tools to the read tools`,
        );
      const offered = WRITE_OPS.filter((id) => toolsOf(id).some((t) => k.tools.includes(t)));
      if (!offered.length) throw new Incomplete(`the write key ${tail(k.key)} is offered no write tool`);
      for (const operationId of [...offered, 'searchCourses']) {
        if (operationId === 'searchCourses' && !k.tools.includes('find_course')) continue;
        const e = await sendHarmless(ctx, operationId, k.key);
        const refused = notRefused(operationId, k, e, 'the write scope on tier full covers the write tools');
        if (refused) return refused;
      }
      return pass();
    },
  },

  // --- mcpAccess none ----------------------------------------------------------------------------
  {
    id: 'v2.licence.none.refused',
    area: 'v2.licence',
    level: 'MUST',
    rules: ['000/licence.none', '000/errors.shape'],
    title:
      'with a key of a tenant at mcpAccess none, capabilities, a read, a write and an AI call are refused with 403 MCP_LICENSE_DISABLED',
    needs: { tenantKey: 'none' },
    run: (ctx) =>
      refusedEach(
        ctx,
        tenantKey(ctx, 'none'),
        ['getCapabilities', 'searchCourses', 'banUser', 'refineCourse'],
        'MCP_LICENSE_DISABLED',
        'a valid key of a tenant at mcpAccess none',
      ),
  },
  {
    id: 'v2.licence.none.message',
    area: 'v2.licence',
    level: 'MUST',
    rules: ['000/licence.none-message'],
    title:
      'the 403 MCP_LICENSE_DISABLED says that MCP is not enabled on this workspace and to talk to the administrator',
    needs: { tenantKey: 'none' },
    run: async (ctx) => {
      const e = await ctx.v2.call('getCapabilities', { headers: { 'x-mcp-key': tenantKey(ctx, 'none') } });
      if (e.status !== 403 || codeOf(e) !== 'MCP_LICENSE_DISABLED')
        throw new Incomplete(
          `the key of the tenant at mcpAccess none was answered ${e.status} ${JSON.stringify(codeOf(e) ?? '')}, not 403 MCP_LICENSE_DISABLED (v2.licence.none.refused judges that)`,
        );
      const message = messageOf(e);
      // Seed 000, Errors: "MCP is not enabled on this workspace, talk to your administrator" — by content.
      return /\bMCP\b/i.test(message) &&
        /not\s+(be\s+)?enabled|disabled/i.test(message) &&
        /admin/i.test(message)
        ? pass()
        : fail(
            `the message is "${message.slice(0, 200)}"`,
            evidenceOf(
              e,
              'a message saying MCP is not enabled on this workspace, talk to your administrator',
            ),
          );
    },
  },

  // --- mcpAccess read ----------------------------------------------------------------------------
  {
    id: 'v2.licence.read.clamped',
    area: 'v2.licence',
    level: 'MUST',
    rules: ['000/licence.read-clamp', '000/capabilities.tier'],
    title:
      'a key issued with write, of a tenant at mcpAccess read, is shown tier read, scopes.write false and no write or AI tool',
    needs: { tenantKey: 'read' },
    run: async (ctx) => {
      const { e, info } = await capabilitiesOf(ctx, tenantKey(ctx, 'read'));
      if (!info) return judge(ctx.v2, 'getCapabilities', e, [200]);
      const extra = info.tools.filter((t) => PLAIN_WRITE_TOOLS.includes(t) || AI_TOOLS.includes(t));
      const problems = [
        ...(info.tier !== 'read' ? [`tier is ${JSON.stringify(info.tier)}`] : []),
        ...(info.scopes.write !== false ? ['scopes.write is not false'] : []),
        ...(extra.length ? [`offered ${extra.join(', ')}`] : []),
      ];
      return problems.length
        ? fail(
            `the tenant is at mcpAccess read, yet ${problems.join('; ')}`,
            evidenceOf(e, 'tier read, scopes.write false, no write or AI tool'),
          )
        : pass();
    },
  },
  {
    id: 'v2.licence.read.writes-refused',
    area: 'v2.licence',
    level: 'MUST',
    rules: ['000/licence.clamp-every-request', '000/errors.shape'],
    title:
      'a key issued with write, of a tenant at mcpAccess read, is refused with 403 on every write operation, and may still read',
    needs: { tenantKey: 'read' },
    run: async (ctx) => {
      const key = tenantKey(ctx, 'read');
      mustPass(
        await refusedEach(ctx, key, WRITE_OPS, undefined, 'a write with a key of a tenant at mcpAccess read'),
      );
      const read = await ctx.v2.call('searchCourses', {
        query: { query: 'a', limit: 5 },
        headers: { 'x-mcp-key': key },
      });
      return judge(ctx.v2, 'searchCourses', read, [200]);
    },
  },
  {
    id: 'v2.licence.read.ai-refused',
    area: 'v2.licence',
    level: 'MUST',
    rules: ['000/licence.ai-needs-full', '000/errors.shape'],
    title: 'a key of a tenant at mcpAccess read is refused with 403 on every AI operation',
    needs: { tenantKey: 'read' },
    run: (ctx) =>
      refusedEach(
        ctx,
        tenantKey(ctx, 'read'),
        AI_OPS,
        undefined,
        'an AI call with a key of a tenant at mcpAccess read (AI tools need mcpAccess full)',
      ),
  },

  // --- mcpAiAccess false ---------------------------------------------------------------------------
  {
    id: 'v2.licence.no-ai.not-offered',
    area: 'v2.licence',
    level: 'MUST',
    rules: ['000/licence.ai-offered'],
    title: 'a key of a tenant at mcpAccess full with mcpAiAccess false is offered no AI tool',
    needs: { tenantKey: 'no-ai' },
    run: async (ctx) => {
      const { e, info } = await capabilitiesOf(ctx, tenantKey(ctx, 'no-ai'));
      if (!info) return judge(ctx.v2, 'getCapabilities', e, [200]);
      const offered = info.tools.filter((t) => AI_TOOLS.includes(t));
      return offered.length
        ? fail(
            `the tenant has mcpAiAccess false, yet the key is offered ${offered.join(', ')}`,
            evidenceOf(e, 'no AI tool among the tools'),
          )
        : pass();
    },
  },
  {
    id: 'v2.licence.no-ai.refused',
    area: 'v2.licence',
    level: 'MUST',
    rules: ['000/licence.ai-disabled', '000/errors.shape'],
    title:
      'a key of a tenant with mcpAiAccess false is refused with 403 MCP_AI_DISABLED on every AI operation',
    needs: { tenantKey: 'no-ai' },
    run: async (ctx) => {
      const key = tenantKey(ctx, 'no-ai');
      const { info } = await capabilitiesOf(ctx, key);
      // Seed 000: MCP_AI_DISABLED is the refusal of the AI switch; on a lower tier another 403 comes first.
      if (info && info.tier !== 'full')
        throw new Incomplete(
          `the key given as --tenant-key no-ai is of a tenant at tier ${info.tier}; mcpAiAccess false shows on tier full`,
        );
      return refusedEach(
        ctx,
        key,
        AI_OPS,
        'MCP_AI_DISABLED',
        'an AI call while the tenant has mcpAiAccess false',
      );
    },
  },

  // --- A revoked key -----------------------------------------------------------------------------
  {
    id: 'v2.auth.revoked-key',
    area: 'v2.auth',
    level: 'MUST',
    rules: ['000/auth.revoked-or-banned', '000/errors.unauthorized'],
    title: "a revoked key gets 401 on capabilities and on a tool's backend call",
    needs: { revokedKey: true },
    run: async (ctx) => {
      mustPass(revokedRefused(ctx, 'getCapabilities', await revokedCapabilities(ctx)));
      ctx.spendFailedLogin();
      const e = await ctx.v2.call('searchCourses', {
        query: { query: 'a', limit: 5 },
        headers: { 'x-mcp-key': ctx.config.revokedKey as string },
      });
      return revokedRefused(ctx, 'searchCourses', e);
    },
  },
  {
    id: 'v2.keys.independent-revoke',
    area: 'v2.keys',
    level: 'MUST',
    rules: ['000/keys.independent-revoke'],
    title:
      'right after the revoked key is refused, every other key given (the revoked key is of the owner of the --mcp-key keys) is still accepted',
    needs: { revokedKey: true },
    run: async (ctx) => {
      const revoked = await revokedCapabilities(ctx);
      if (revoked.status !== 401)
        throw new Incomplete(
          `the revoked key was answered ${revoked.status} (v2.auth.revoked-key judges that)`,
        );
      const given = [...ctx.config.mcpKeys, ...ctx.givenRoleKeys().map(([, key]) => key)].filter(
        (k) => k !== ctx.config.revokedKey,
      );
      if (!given.length) throw new Incomplete('no other key given (--mcp-key) to stay accepted');
      for (const key of given) {
        const e = await ctx.v2.call('getCapabilities', { headers: { 'x-mcp-key': key } });
        if (e.status === 401) {
          ctx.spent.failedLogins++;
          return fail(
            `the key ${tail(key)} given is refused (401) as well: revoking one key must leave its owner's other keys working (or the key given is not valid)`,
            evidenceOf(e, '200: each key has its own revoke control'),
          );
        }
        mustPass(judge(ctx.v2, 'getCapabilities', e, [200]));
      }
      return pass();
    },
  },
];
