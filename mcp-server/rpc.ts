// The JSON-RPC errors of the tool server, one table for stdio and HTTP (docs/mcp.md, "Errors a client
// can meet"), and the check of a request's params against the SDK's own request schemas before the SDK
// sees them: its own check of them ends in -32603 Internal error with a zod dump instead of -32602.
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC's codes, and the server-defined ones (-32000 to -32099) this server uses. */
export const RpcCode = {
  ParseError: ErrorCode.ParseError,
  InvalidRequest: ErrorCode.InvalidRequest,
  MethodNotFound: ErrorCode.MethodNotFound,
  InvalidParams: ErrorCode.InvalidParams,
  InternalError: ErrorCode.InternalError,
  /** HTTP only: the request itself is refused (Host, Origin, method, body size, path), as the SDK does. */
  Refused: -32000,
  /** No MCP key, or the platform refused it (HTTP 401). */
  KeyRefused: -32010,
  /** The platform asks to wait: too many requests or failed logins (HTTP 429); data.retryAfter in seconds. */
  TooManyRequests: -32011,
  /** The platform did not answer (HTTP 503). */
  PlatformUnavailable: -32012,
} as const;

export type RpcId = string | number | null;

/**
 * An error the SDK sends as it is. The SDK's McpError puts "MCP error <code>: " in front of its
 * message, and SDK clients put it there again when they read the answer: the prefix came out twice.
 */
export function rpcError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}

export const errorMessage = (id: RpcId, code: number, message: string, data?: unknown): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id: id as string | number,
  error: { code, message, ...(data === undefined ? {} : { data }) },
});

/** The id of a request, if the value is one (an answer to a broken request still names it when it can). */
export function idOf(value: unknown): RpcId {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

const PARAMS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
} as const;

/** Why a request to a method this server answers has invalid params, in one line; null when it has none. */
export function invalidParams(message: JSONRPCMessage): string | null {
  if (!('method' in message) || !('id' in message)) return null;
  const schema = PARAMS[message.method as keyof typeof PARAMS];
  if (!schema) return null;
  const parsed = schema.safeParse(message);
  if (parsed.success) return null;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`);
  return `Invalid params for ${message.method}: ${[...new Set(problems)].join('; ')}.`;
}
