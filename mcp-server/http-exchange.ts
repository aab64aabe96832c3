// One POST of Streamable HTTP, stateless and answered with JSON: the SDK transport's rules for such a
// request (MCP spec, Transports > Streamable HTTP), applied to Express's request and response directly.
// The SDK's own StreamableHTTPServerTransport turns every Node request into a web Request and every
// answer into a web Response and back; measured under load (bench/tool-server.ts), that conversion
// was about a third of what a tool call cost the tool server.
// Every refusal below is the SDK's, word for word, with its status and code.
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type MessageExtraInfo,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';

const JSON_TYPE = { 'content-type': 'application/json' };

interface Refusal {
  status: number;
  code: number;
  message: string;
}
const refusal = (status: number, code: number, message: string): Refusal => ({ status, code, message });

export class HttpExchange implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** The answers owed, by request id in the order the requests came; undefined until given. */
  private readonly owed = new Map<RequestId, JSONRPCMessage | undefined>();
  private closed = false;

  constructor(
    private readonly req: Request,
    private readonly res: Response,
  ) {}

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  /** Checks the POST and hands its messages to the server; the answer goes out once all are answered. */
  handle(body: unknown): void {
    const messages = this.messagesOf(body);
    if (!Array.isArray(messages)) {
      this.onerror?.(new Error(messages.message));
      const { status, code, message } = messages;
      this.res
        .writeHead(status, JSON_TYPE)
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
      return;
    }
    const extra: MessageExtraInfo = { requestInfo: { headers: this.req.headers } };
    for (const message of messages) if (isJSONRPCRequest(message)) this.owed.set(message.id, undefined);
    // Only notifications or answers: nothing will be answered, so the POST is accepted at once.
    if (this.owed.size === 0) this.res.status(202).end();
    for (const message of messages) this.onmessage?.(message, extra);
  }

  /** The POST's messages, or why the transport refuses it (the SDK's checks, in the SDK's order). */
  private messagesOf(body: unknown): JSONRPCMessage[] | Refusal {
    const accept = this.req.headers.accept;
    // Accept is a list: a substring check is the rule, as in the SDK.
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream'))
      return refusal(
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    if (!isJsonContentType(this.req.headers['content-type'] ?? null))
      return refusal(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    // No body at all (the JSON parser leaves none): the SDK finds no JSON to parse either.
    if (body === undefined) return refusal(400, -32700, 'Parse error: Invalid JSON');
    if (Array.isArray(body) && body.length > MAX_BATCH_SIZE)
      return refusal(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    let messages: JSONRPCMessage[];
    try {
      messages = (Array.isArray(body) ? body : [body]).map((m) => JSONRPCMessageSchema.parse(m));
    } catch {
      return refusal(400, -32700, 'Parse error: Invalid JSON-RPC message');
    }
    if (messages.some(isInitializeRequest)) {
      if (messages.length > 1)
        return refusal(400, -32600, 'Invalid Request: Only one initialization request is allowed');
      return messages;
    }
    const version = this.req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version))
      return refusal(
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
    return messages;
  }

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    const answer = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    // A notification has no place in a JSON answer and, stateless, there is no stream to carry it
    // (the SDK drops it the same way); an answer to a request of another POST cannot happen here.
    if (!answer || this.closed) return;
    const { id } = message;
    if (id === undefined || !this.owed.has(id))
      throw new Error(`No connection established for request ID: ${String(id)}`);
    this.owed.set(id, message);
    const answers = [...this.owed.values()];
    if (answers.includes(undefined)) return;
    const text = JSON.stringify(answers.length === 1 ? answers[0] : answers);
    this.res.writeHead(200, JSON_TYPE).end(text);
  }
}
