// The stdio transport: one JSON-RPC message per line on stdin, answers on stdout, which carries nothing
// else. Unlike the SDK's StdioServerTransport, a line that is not JSON gets a -32700 answer and one that
// is not a JSON-RPC message a -32600 answer (the SDK's only tells its onerror), and a line is bounded:
// past MAX_LINE_BYTES the rest of it is skipped and answered -32600 with the message's id when its
// first or last bytes show it, and the server keeps serving.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, idOf, RpcCode } from './rpc.ts';

/** The longest line read: the HTTP body limit, so both transports take the same requests. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** How much of an oversized line's start and end is kept to find its id. */
const EDGE_BYTES = 1024;

const ID = String.raw`"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,256}")`;
/** The id as a message's first member, or second after `"jsonrpc"`; or as its last member. */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?${ID}`);
const ID_LAST = new RegExp(String.raw`,\s*${ID}\s*\}\s*$`);

/**
 * The id of a message too long to parse, read from its first and last bytes where a client writes it
 * (the SDK's client writes it last), so that the client's request gets its answer instead of waiting
 * for its own timeout; null when neither end shows it.
 */
export function idOfOversized(head: string, tail: string): string | number | null {
  const found = ID_FIRST.exec(head) ?? ID_LAST.exec(tail);
  return found ? (JSON.parse(found[1] as string) as string | number) : null;
}

export class StdioTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  private chunks: Buffer[] = [];
  private size = 0;
  /** Inside a line already over the limit: drop bytes until its end. */
  private skipping = false;
  /** Of a line over the limit, its first and last bytes: where its id is (idOfOversized). */
  private head = '';
  private tail = Buffer.alloc(0);

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
    if (part.length === 0) return;
    if (this.skipping) {
      this.tail = Buffer.concat([this.tail, part]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.size + part.length > MAX_LINE_BYTES) {
      this.skipping = true;
      const line = Buffer.concat([...this.chunks, part]);
      this.head = line.subarray(0, EDGE_BYTES).toString('utf8');
      this.tail = line.subarray(-EDGE_BYTES);
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
      const id = idOfOversized(this.head, this.tail.toString('utf8'));
      this.head = '';
      this.tail = Buffer.alloc(0);
      void this.reply(
        id,
        RpcCode.InvalidRequest,
        `Invalid Request: a message may be at most ${MAX_LINE_BYTES} bytes long.`,
      );
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
