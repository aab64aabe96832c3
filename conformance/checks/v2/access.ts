// v2 capabilities and what each key is offered (seed 000, "Capabilities response",
// "Authentication", "Tenant restrictions"): the capabilities as documented for every key, their
// owner, the key format, no tool outside the catalogue, tools that agree with the key's scopes and
// tier, and a tool withheld from a key refused by its backend call too. Read-only.
import { type Context, evidenceOf, fail, type KeyInfo, pass, toolsOf } from '../../context.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check, Verdict } from '../../types.ts';
import { judge, mustPass, readAssumed } from '../common/judge.ts';
import { who } from '../common/keys.ts';
import { ABSENT, AI_TOOLS, READ_TOOLS, TOOLS, WRITE_TOOLS } from '../common/tools.ts';
import { HARMLESS } from '../probes/harmless.ts';

const area = (a: string) => `v2.${a}`;
const needs = { mcpScope: 'read' as const };

/** A problem of any accepted key, those of other roles (`--role-key`) too, fails the check. */
const eachKey = (ctx: Context, check: (k: KeyInfo) => string | null): Verdict => {
  if (!ctx.keys.length) throw new Incomplete('no MCP key was accepted');
  const problems = ctx.allKeys().flatMap((k) => {
    const p = check(k);
    return p ? [`${who(k)}: ${p}`] : [];
  });
  return problems.length ? fail(problems.join('; ')) : pass();
};

export const v2AccessChecks: Check[] = [
  {
    id: 'v2.capabilities.contract',
    area: area('capabilities'),
    level: 'MUST',
    rules: [
      '000/capabilities.response',
      '000/capabilities.tier',
      '000/capabilities.scopes',
      '000/capabilities.user',
      '000/capabilities.resources',
    ],
    title: 'GET /api/v2/mcp/capabilities answers tier, scopes, user, tools and resources for every key',
    needs,
    run: async (ctx) => {
      for (const k of ctx.allKeys()) {
        const e = await ctx.v2.call('getCapabilities', { headers: { 'x-mcp-key': k.key } });
        mustPass(judge(ctx.v2, 'getCapabilities', e, [200]));
      }
      return pass();
    },
  },
  {
    id: 'v2.capabilities.owner',
    area: area('capabilities'),
    level: 'MUST',
    rules: ['000/capabilities.response', '000/capabilities.user', '000/get-user'],
    title: 'the key owner the capabilities name is that user: get_user gives the same e-mail',
    needs,
    run: async (ctx) => {
      for (const k of ctx.allKeys().filter((key) => key.tools.includes('get_user'))) {
        const e = await ctx.v2.call('getUser', {
          params: { userId: k.user.id },
          headers: { 'x-mcp-key': k.key },
        });
        mustPass(judge(ctx.v2, 'getUser', e, [200]));
        const mail = readAssumed(e, "the user's e-mail", (b: { email?: string }) => b.email);
        if (mail.toLowerCase() !== k.user.email.toLowerCase())
          return fail(
            `capabilities name user ${k.user.id} with ${k.user.email}; get_user gives ${mail}`,
            evidenceOf(e, `email ${k.user.email}`),
          );
      }
      return pass();
    },
  },
  {
    id: 'v2.keys.format',
    area: area('capabilities'),
    level: 'MUST',
    rules: ['000/keys.format'],
    title:
      'every MCP key the deployment accepts is a 5-character prefix ending in _ and 43 characters of URL-safe base64',
    needs,
    run: async (ctx) =>
      eachKey(ctx, (k) =>
        // Seed 000: 5-character prefix ending in _, then 43 characters of base64url; 48 in all.
        /^[^_\s]{4}_[A-Za-z0-9_-]{43}$/.test(k.key)
          ? null
          : `is ${k.key.length} characters long, not a 5-character prefix ending in _ and 43 of base64url`,
      ),
  },
  {
    id: 'v2.capabilities.no-phantom-tools',
    area: area('capabilities'),
    level: 'MUST',
    rules: ['000/capabilities.absent-tools', '000/tools.catalogue'],
    title: `no key is offered ${ABSENT.join(' or ')}, nor any tool outside the ${TOOLS.length}`,
    needs,
    run: async (ctx) =>
      eachKey(ctx, (k) => {
        const odd = k.tools.filter((t) => ABSENT.includes(t) || !TOOLS.some((d) => d.name === t));
        return odd.length ? `offers ${odd.join(', ')}` : null;
      }),
  },
  {
    id: 'v2.capabilities.tools-agree-with-scopes',
    area: area('capabilities'),
    level: 'MUST',
    rules: ['000/capabilities.filtered', '000/capabilities.filter-scope', '000/licence.read-clamp'],
    title: 'a key without the write scope is offered no write or AI tool; the tier clamps the scopes',
    needs,
    run: async (ctx) =>
      eachKey(ctx, (k) => {
        if (!k.scopes.write && k.tools.some((t) => WRITE_TOOLS.includes(t)))
          return `read-only, yet offered ${k.tools.filter((t) => WRITE_TOOLS.includes(t)).join(', ')}`;
        if (!k.scopes.read && k.tools.some((t) => READ_TOOLS.includes(t)))
          return 'without the read scope, yet offered read tools';
        if (k.tier !== 'full' && k.scopes.write)
          return `tier ${k.tier}, yet scopes.write is true (the tier clamps every key)`;
        return null;
      }),
  },
  {
    id: 'v2.capabilities.ai-tools-need-ai-licence',
    area: area('capabilities'),
    level: 'MUST',
    rules: ['000/licence.ai-offered'],
    title: 'AI tools are offered only with the write scope on tier full',
    needs,
    run: async (ctx) =>
      eachKey(ctx, (k) => {
        const offered = k.tools.filter((t) => AI_TOOLS.includes(t));
        return offered.length && (k.tier !== 'full' || !k.scopes.write)
          ? `offers ${offered.join(', ')} on tier ${k.tier}${k.scopes.write ? '' : ' without write'}`
          : null;
      }),
  },
  {
    id: 'v2.capabilities.withheld-refused',
    area: area('capabilities'),
    level: 'MUST',
    rules: [
      '000/capabilities.filtered',
      '000/licence.ai-offered',
      '000/permission.refused',
      '000/errors.shape',
    ],
    title:
      'an operation whose tools a key is not offered, though it has the scope, is refused with 403 (nothing withheld: nothing to refuse)',
    needs,
    run: async (ctx) => {
      for (const key of ctx.allKeys()) {
        for (const [operationId, request] of Object.entries(HARMLESS.v2)) {
          const op = ctx.v2.operation(operationId).node;
          const tools = toolsOf(operationId);
          const scope = op['x-scope'] as 'read' | 'write';
          if (!tools.length || !key.scopes[scope] || tools.some((t) => key.tools.includes(t))) continue;
          const e = await ctx.v2.callRaw(operationId, { ...request(ctx), headers: { 'x-mcp-key': key.key } });
          if (e.status !== 403)
            return fail(
              `${who(key)} is not offered ${tools.join(', ')}, yet ${operationId} answered ${e.status}`,
              evidenceOf(e, '403: a tool the key is not offered is not callable through its backend either'),
            );
          mustPass(judge(ctx.v2, operationId, e, [403]));
        }
      }
      return pass();
    },
  },
];
