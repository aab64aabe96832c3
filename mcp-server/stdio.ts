// The stdio transport: one JSON-RPC message per line on stdin, answers on stdout, which carries nothing
// else. Unlike the SDK's StdioServerTransport, a line that is not JSON gets a -32700 answer and one that
// is not a JSON-RPC message a -32600 answer (the SDK's only tells its onerror), and a line is bounded:
// past MAX_LINE_BYTES the rest of it is skipped and answered -32600, and the server keeps serving.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, idOf, RpcCode } from './rpc.ts';

/** The longest line read: the HTTP body limit, so both transports take the same requests. */
export const MAX_LINE_BYTES = 1024 * 1024;

export class StdioTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  private chunks: Buffer[] = [];
  private size = 0;
  /** Inside a line already over the limit: drop bytes until its end. */
  private skipping = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    let rest = chunk;
    for (let end = rest.indexOf(10); end !== -1; end = rest.indexOf(10)) {
      this.take(rest.subarray(0, end));
      this.finishLine();
      rest = rest.subarray(end + 1);
    }
    this.take(rest);
  };

  private readonly onEnd = () => void this.close();

  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.size + part.length > MAX_LINE_BYTES) {
      this.skipping = true;
      this.chunks = [];
      this.size = 0;
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
  }

  private finishLine(): void {
    const skipped = this.skipping;
    const line = Buffer.concat(this.chunks).toString('utf8').trim();
    this.chunks = [];
    this.size = 0;
    this.skipping = false;
    if (skipped) {
      void this.reply(null, RpcCode.InvalidRequest, `A message may be at most ${MAX_LINE_BYTES} bytes long.`);
      return;
    }
    if (!line) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      void this.reply(
        null,
        RpcCode.ParseError,
        'Parse error: the line is not JSON. Send one JSON-RPC message per line.',
      );
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) {
      void this.reply(
        idOf(value),
        RpcCode.InvalidRequest,
        'Invalid Request: the line is not a JSON-RPC 2.0 message.',
      );
      return;
    }
    this.onmessage?.(message.data);
  }

  private reply(id: string | number | null, code: number, message: string): Promise<void> {
    return this.send(errorMessage(id, code, message));
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', (error: Error) => this.onerror?.(error));
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.onclose?.();
  }
}
