// Departures of the MCP tool server (seed 000 and the MCP specification; conformance/checks/mcp/):
// its tools/list, its tool calls, and what it passes to the backend. Those of its role rules (acting
// as the key's owner, bulk_assign, list_assignments, parameter names) are in ./permissions.ts.
import type { Departure, Json } from './kit.ts';
import { ABSENT, fake, keyOf, onRequest, onRpc, READ_KEY, toolResult, V2 } from './kit.ts';

export const MCP_DEPARTURES: Departure[] = [
  // --- The tool server (seed 000 and the MCP specification) ---
  {
    name: 'tools/list offers a tool the capabilities do not',
    seed: '000 Authentication 3: "registers only the tools listed in tools"',
    catches: 'mcp.tools.list-equals-capabilities',
    rewrites: () => [
      onRpc('tools/list', (r, req) => {
        if (keyOf(req) === READ_KEY) r.tools.push({ ...r.tools[0], name: 'ban_user' });
      }),
    ],
  },
  {
    name: 'tools/list drops get_leaderboard',
    seed: '000 Authentication 3: "registers only the tools listed in tools" (and all of them)',
    catches: 'mcp.tools.list-equals-capabilities',
    rewrites: () => [
      onRpc('tools/list', (r) => {
        r.tools = r.tools.filter((t: Json) => t.name !== 'get_leaderboard');
      }),
    ],
  },
  {
    name: `tools/list offers ${ABSENT}`,
    seed: '000 What the service does 5: "extend_deadline ... does not exist"',
    catches: 'mcp.tools.no-phantoms',
    rewrites: () => [onRpc('tools/list', (r) => void r.tools.push({ ...r.tools[0], name: ABSENT }))],
  },
  {
    name: 'structuredContent departs from the output schema',
    seed: 'MCP specification: structured results conform to the output schema',
    catches: 'mcp.tools.structured-content',
    rewrites: () => [onRpc('tools/call', (r) => void delete r.structuredContent?.totalCount, 'find_course')],
  },
  {
    name: 'an unknown tool answered with a result',
    seed: 'MCP specification: calling an unknown tool is a protocol error',
    catches: 'mcp.protocol.unknown-tool',
    rewrites: () => [
      fake(
        'POST',
        '/mcp',
        (req) => (req.json as Json)?.params?.name === ABSENT,
        (req) => toolResult(req, 'Deadline extended.'),
      ),
    ],
  },
  {
    name: 'a tool the key is not offered performed anyway',
    seed: '000 What the service does 2: "Every tool call runs with that user\'s permissions"',
    catches: 'mcp.tools.not-offered-refused',
    rewrites: () => [
      fake(
        'POST',
        '/mcp',
        (req) => keyOf(req) === READ_KEY && (req.json as Json)?.params?.name === 'ban_user',
        (req) => toolResult(req, 'User banned.'),
      ),
    ],
  },
  {
    name: 'find_user called without its query',
    seed: '000 Read tools: "find_user | query ... | GET /api/v2/users?query&limit"',
    catches: 'mcp.tools.find-user-query',
    rewrites: () => [
      onRequest('POST', '/mcp', (req) => {
        const call = req.json as Json;
        if (call?.params?.name === 'find_user') call.params.arguments.query = '@';
      }),
    ],
  },
  {
    name: 'a backend error turned into a protocol error',
    seed: '000 Errors: "Tools convert backend errors into readable strings for the agent"',
    catches: 'mcp.tools.backend-error-readable',
    rewrites: () => [
      {
        method: 'POST',
        path: '/mcp',
        response: (answer, req) => {
          const call = req.json as Json;
          if (call?.params?.name !== 'get_user' || !(answer.body as Json)?.result?.isError) return;
          return {
            status: 200,
            body: { jsonrpc: '2.0', id: call.id, error: { code: -32603, message: 'Internal error' } },
          };
        },
      },
    ],
  },
  {
    name: "get_audit_log's limit allowed up to 500",
    seed: '000 Limits: "get_audit_log limit | default 50, maximum 250"',
    catches: 'mcp.tools.audit-log.limit',
    rewrites: () => [
      onRpc('tools/list', (r) => {
        const limit = r.tools.find((t: Json) => t.name === 'get_audit_log')?.inputSchema.properties.limit;
        if (limit) limit.maximum = 500;
      }),
    ],
  },
  {
    name: "get_audit_log's offset not passed to the backend",
    seed: '000 Read tools > get_audit_log: "`<offset>` integer optional"',
    catches: 'mcp.tools.audit-log.offset',
    rewrites: () => [
      onRequest('GET', `${V2}/audit`, (req) => {
        req.query.delete('offset');
      }),
    ],
  },
  {
    name: 'upload_source_material answers for another file',
    seed: '000 AI tools > upload_source_material: "`<absolute local file path>` string required"',
    catches: 'mcp.tools.upload.file-path',
    rewrites: () => [
      onRpc(
        'tools/call',
        (r) => {
          r.structuredContent = { sessionId: 's1', filename: 'other.pdf', chunkCount: 1, message: 'ok' };
          r.content = [{ type: 'text', text: JSON.stringify(r.structuredContent) }];
        },
        'upload_source_material',
      ),
    ],
  },
];
