// How the kit's MCP tool server marks its requests to an /api/v2 backend, shared by the tool server
// (mcp-server/backend.ts), which sends them, and the mock, whose request journal and faults read them
// (mock/http/journal/, mock/http/faults.ts): here so that neither imports the other for a constant.

/** Sent as `User-Agent`: the mock's request journal lists these requests as API `mcp`. */
export const MCP_USER_AGENT = 'lmskit-mcp';
/**
 * Names the tool a backend call is made for (`ban_user`), so the mock's journal records it and its
 * faults can target a tool (docs/mock.md, "Driving it from tests"); a deployment ignores it.
 */
export const MCP_TOOL_HEADER = 'x-mcp-tool';
