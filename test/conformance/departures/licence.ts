// Departures of the licence checks (conformance/checks/v2/licence.ts): licence states ignored, a
// revoked key accepted or revoking too much, the scopes of the keys given not honoured.
import type { Departure, Json } from './kit.ts';
import {
  AI_TOOLS,
  actAs,
  capabilitiesFor,
  keyOf,
  onStatus,
  READ_KEY,
  refuse,
  V2,
  V2_ANY,
  WRITE_KEY,
} from './kit.ts';

/** The v2 paths of the AI tools (generation, refinement, the upload). */
const AI_PATH = /^\/api\/v2\/(ai|chat)\//;

export const LICENCE_DEPARTURES: Departure[] = [
  {
    name: 'a read-only key not offered a read tool its owner may use',
    seed: '000 Resources > MCP key: "Scopes | `read` (all read tools)"',
    catches: 'v2.keys.scope-read',
    rewrites: () => [
      capabilitiesFor(READ_KEY, (b) => {
        b.tools = b.tools.filter((t: string) => t !== 'get_leaderboard');
      }),
      refuse(
        'GET',
        `${V2}/statistics/leaders`,
        (req) => keyOf(req) === READ_KEY,
        403,
        'This call needs the write scope.',
        'WRITE_SCOPE_REQUIRED',
      ),
    ],
  },
  {
    name: 'the write key refused a write tool it is offered',
    seed: '000 Resources > MCP key: "Scopes | `write` (all write tools; needs licence tier `full`)"',
    catches: 'v2.keys.scope-write',
    rewrites: () => [
      refuse(
        'POST',
        `${V2}/courses/clone`,
        (req) => keyOf(req) === WRITE_KEY,
        403,
        'Cloning needs an admin scope.',
        'ADMIN_SCOPE_REQUIRED',
      ),
    ],
  },
  {
    name: 'licence none ignored: the tenant key answered as a licensed one',
    seed: '000 Authentication 4: "`none` (default) | MCP disabled; requests get 403 `MCP_LICENSE_DISABLED`"',
    catches: 'v2.licence.none.refused',
    rewrites: (keys) => [actAs('GET', V2_ANY, keys.tenants.none, WRITE_KEY)],
  },
  {
    name: 'MCP_LICENSE_DISABLED without a word of the administrator',
    seed: '000 Errors: "MCP_LICENSE_DISABLED | … message: MCP is not enabled on this workspace, talk to your administrator"',
    catches: 'v2.licence.none.message',
    rewrites: () => [
      onStatus(V2_ANY, 403, (b) => {
        if (b.code === 'MCP_LICENSE_DISABLED') b.error = 'Forbidden.';
      }),
    ],
  },
  {
    name: 'licence read still shows the write scope and write tools',
    seed: '000 Authentication 4: "`read` | all keys treated as read-only, including keys issued with write"',
    catches: 'v2.licence.read.clamped',
    rewrites: (keys) => [
      capabilitiesFor(keys.tenants.read, (b) => {
        b.scopes.write = true;
        b.tools = [...b.tools, 'assign_training', 'ban_user'];
      }),
    ],
  },
  {
    name: 'licence read clamp ignored: a key issued with write still writes',
    seed: '000 States and transitions > MCP key: "The tenant clamp (`mcpAccess` lowered to `read` or `none`) is applied on every request, so write tools stop working for existing keys without re-issue."',
    catches: 'v2.licence.read.writes-refused',
    rewrites: (keys) => [
      actAs('POST', /^\/api\/v2\/(users|courses|courseChains)\//, keys.tenants.read, WRITE_KEY),
    ],
  },
  {
    name: 'licence read lets the AI tools through',
    seed: '000 AI tools: "need `mcpAccess` = `full` and `mcpAiAccess` = true"',
    catches: 'v2.licence.read.ai-refused',
    rewrites: (keys) => [actAs('POST', AI_PATH, keys.tenants.read, WRITE_KEY)],
  },
  {
    name: 'AI tools offered with mcpAiAccess false',
    seed: '000 Resources > Tenant restrictions: "`mcpAiAccess` | boolean | whether AI tools may be used"',
    catches: 'v2.licence.no-ai.not-offered',
    rewrites: (keys) => [
      capabilitiesFor(keys.tenants['no-ai'], (b) => {
        b.tools = [...new Set([...b.tools, ...AI_TOOLS])];
      }),
    ],
  },
  {
    name: 'the AI switch ignored: an AI call goes on with mcpAiAccess false',
    seed: '000 Errors: "403 | `MCP_AI_DISABLED` | AI tool invoked while `mcpAiAccess` is false"',
    catches: 'v2.licence.no-ai.refused',
    rewrites: () => [
      {
        path: AI_PATH,
        response: (a) =>
          a.status === 403 && (a.body as Json)?.code === 'MCP_AI_DISABLED'
            ? { status: 404, body: { error: 'Not found.', code: 'NOT_FOUND' } }
            : undefined,
      },
    ],
  },
  {
    name: 'a revoked key accepted',
    seed: '000 States and transitions > MCP key: "active | revoke (settings UI) | - | revoked | effective within seconds; requests then get 401"',
    catches: 'v2.auth.revoked-key',
    rewrites: (keys) => [actAs('GET', V2_ANY, keys.revoked, READ_KEY)],
  },
  {
    name: 'revoking a key revokes every key of its owner',
    seed: '000 Resources > MCP key: "each has its own `last_used_at` and revoke control"',
    catches: 'v2.keys.independent-revoke',
    rewrites: () => [
      refuse(
        'GET',
        V2_ANY,
        (req) => keyOf(req) === READ_KEY || keyOf(req) === WRITE_KEY,
        401,
        'This MCP key was revoked.',
        'UNAUTHORIZED',
      ),
    ],
  },
];
