// v2 authentication, licence and scope (seed 000, "Authentication", "Errors", "Capabilities
// response", "Tenant restrictions"): what a key may see and do.
import { loadTools } from '../../lib/tool-schemas.ts';
import { type Context, evidenceOf, fail, type KeyInfo, pass, skip } from '../context.ts';
import type { Check, Verdict } from '../types.ts';
import { judge, UNKNOWN_ID } from './helpers.ts';

const S = 'seed 000';
const area = (a: string) => `v2.${a}`;
const TOOLS = loadTools();
const READ_TOOLS = TOOLS.filter((t) => t['x-scope'] === 'read').map((t) => t.name);
const WRITE_TOOLS = TOOLS.filter((t) => t['x-scope'] === 'write').map((t) => t.name);
const PHANTOMS = ['extend_deadline', 'send_reminder'];

const eachKey = (ctx: Context, check: (k: KeyInfo) => string | null): Verdict => {
  if (!ctx.keys.length) return skip('no MCP key was accepted');
  const problems = ctx.keys.flatMap((k) => {
    const p = check(k);
    return p ? [`key …${k.key.slice(-4)}: ${p}`] : [];
  });
  return problems.length ? fail(problems.join('; ')) : pass();
};

export const v2AccessChecks: Check[] = [
  ...(['missing', 'wrong'] as const).map(
    (how): Check => ({
      id: `v2.auth.${how}-key`,
      area: area('auth'),
      level: 'MUST',
      source: `${S}, Authentication 5: missing or invalid key → 401`,
      title: `a request with ${how === 'missing' ? 'no' : 'a wrong'} X-MCP-Key answers 401`,
      run: async (ctx) => {
        const headers: Record<string, string> =
          how === 'wrong' ? { 'x-mcp-key': `lmcp_${'x'.repeat(43)}` } : {};
        const e = await ctx.v2.call('searchCourses', { query: { query: 'a' }, headers });
        if (e.status !== 401) return fail(`answered ${e.status}`, evidenceOf(e, '401'));
        // Seed 000 says 401 has no body and shows one with code UNAUTHORIZED: both are accepted.
        if (!e.text) return pass();
        const code = (e.body as { code?: unknown })?.code;
        return code === 'UNAUTHORIZED'
          ? pass()
          : fail(
              `the 401 body has code ${JSON.stringify(code)}`,
              evidenceOf(e, 'no body, or {error, code: "UNAUTHORIZED"}'),
            );
      },
    }),
  ),
  {
    id: 'v2.capabilities.contract',
    area: area('capabilities'),
    level: 'MUST',
    source: `${S}, Capabilities response: tier, scopes, user, tools, resources`,
    title: 'GET /api/v2/mcp/capabilities answers as documented for every key',
    needs: { mcpScope: 'read' },
    run: async (ctx) => {
      for (const k of ctx.keys) {
        const e = await ctx.v2.call('getCapabilities', { headers: { 'x-mcp-key': k.key } });
        const verdict = judge(ctx.v2, 'getCapabilities', e, [200]);
        if (verdict.status !== 'pass') return verdict;
      }
      return pass();
    },
  },
  {
    id: 'v2.capabilities.no-phantom-tools',
    area: area('capabilities'),
    level: 'MUST',
    source: `${S}, What the service does 5: extend_deadline and send_reminder do not exist`,
    title: 'no key is offered extend_deadline or send_reminder, nor any tool outside the 25',
    needs: { mcpScope: 'read' },
    run: async (ctx) =>
      eachKey(ctx, (k) => {
        const odd = k.tools.filter((t) => PHANTOMS.includes(t) || !TOOLS.some((d) => d.name === t));
        return odd.length ? `offers ${odd.join(', ')}` : null;
      }),
  },
  {
    id: 'v2.capabilities.tools-agree-with-scopes',
    area: area('capabilities'),
    level: 'MUST',
    source: `${S}, What the service does 3; Capabilities response: tools filtered by key scope and licence tier`,
    title: 'a key without the write scope is offered no write or AI tool; scopes follow the tier',
    needs: { mcpScope: 'read' },
    run: async (ctx) =>
      eachKey(ctx, (k) => {
        if (!k.scopes.write && k.tools.some((t) => WRITE_TOOLS.includes(t)))
          return `read-only, yet offered ${k.tools.filter((t) => WRITE_TOOLS.includes(t)).join(', ')}`;
        if (k.tier !== 'full' && k.scopes.write)
          return `tier ${k.tier}, yet scopes.write is true (the tier clamps every key)`;
        if (k.tier === 'none' && k.tools.length) return 'tier none, yet tools are offered';
        if (k.tools.some((t) => !READ_TOOLS.includes(t) && !WRITE_TOOLS.includes(t)))
          return 'offers unknown tools';
        return null;
      }),
  },
  {
    id: 'v2.capabilities.ai-tools-need-ai-licence',
    area: area('capabilities'),
    level: 'MUST',
    source: `${S}, AI tools: need mcpAccess full and mcpAiAccess`,
    title: 'AI tools are offered only with the write scope on tier full',
    needs: { mcpScope: 'read' },
    run: async (ctx) =>
      eachKey(ctx, (k) => {
        const ai = TOOLS.filter((t) => t['x-licence'].mcpAiAccess).map((t) => t.name);
        const offered = k.tools.filter((t) => ai.includes(t));
        return offered.length && (k.tier !== 'full' || !k.scopes.write)
          ? `offers ${offered.join(', ')} on tier ${k.tier} without write`
          : null;
      }),
  },
  {
    id: 'v2.scope.read-key-refused-on-writes',
    area: area('scope'),
    level: 'MUST',
    source: `${S}, Write tools: need the write scope; Errors: 403`,
    title: 'a key without the write scope is refused (403) on a write, and nothing happens',
    needs: { mcpScope: 'read' },
    run: async (ctx) => {
      const key = ctx.keys.find((k) => !k.scopes.write);
      if (!key) return skip('every MCP key given has the write scope');
      // An id no user has: a deployment that ignored the scope would answer 404, and change nothing.
      const e = await ctx.v2.call('banUser', {
        headers: { 'x-mcp-key': key.key },
        body: { userId: UNKNOWN_ID },
      });
      return e.status === 403 ? pass() : fail(`answered ${e.status}`, evidenceOf(e, '403'));
    },
  },
  {
    id: 'v2.errors.shape',
    area: area('errors'),
    level: 'MUST',
    source: `${S}, Errors: error body shape {error: string, code: string}`,
    title: 'errors come as {error, code}',
    needs: { mcpScope: 'read' },
    run: async (ctx) => {
      const e = await ctx.v2.call('getUser', { params: { userId: UNKNOWN_ID }, headers: ctx.v2Headers() });
      const b = e.body as { error?: unknown; code?: unknown } | undefined;
      if (e.status < 400) return fail(`an unknown user answered ${e.status}`, evidenceOf(e, 'an error'));
      return typeof b?.error === 'string' && typeof b.code === 'string'
        ? pass()
        : fail('the error body is not {error, code}', evidenceOf(e, '{error: string, code: string}'));
    },
  },
];
