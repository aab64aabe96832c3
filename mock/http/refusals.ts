// Refusals that happen before any router sees a request, each in the error shape of the API the
// request was for (v1 `{status, message}`, v2 and admin `{error, code}`): a JSON body nested too
// deeply, and requests Node's HTTP parser rejects itself (headers over `maxHeaderSize`, 431).
import { type IncomingMessage, maxHeaderSize, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { apiOf, errorBodyOf } from './apis.ts';
import type { OwnCode } from './error-body.ts';

/** Deeper than this, a JSON body is refused before it is parsed (no API's bodies come near it). */
export const MAX_BODY_DEPTH = 64;

/**
 * `express.json`'s `verify`: counts brackets outside strings in the raw body, so a body nested a
 * hundred thousand levels is refused in one pass instead of being parsed, validated and echoed by
 * recursive code that would overflow the stack.
 */
export function refuseDeepJson(_req: IncomingMessage, _res: unknown, body: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_BODY_DEPTH)
        throw Object.assign(new Error(`Request body is nested deeper than ${MAX_BODY_DEPTH} levels`), {
          status: 400,
          type: 'entity.too.deep',
        });
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

const PARSER_REFUSALS: Record<string, [number, OwnCode, (limit: number) => string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'HEADERS_TOO_LARGE',
    (limit) => `Request headers are larger than ${limit} bytes in all.`,
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', () => 'The request was not received in time.'],
};

interface Answering {
  headersSent?: boolean;
  req?: { originalUrl?: string };
}

/**
 * Answers what Node's HTTP parser refuses with the API's error body instead of Node's bare status
 * line. The request line, when the parser got that far, tells which API the request was for.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    // The answer the request on this socket is getting, if any: one whose headers are out cannot be
    // followed by another, so the connection is only closed.
    const answering = (socket as Duplex & { _httpMessage?: Answering })._httpMessage;
    if (!socket.writable || error.code === 'ECONNRESET' || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, code, message] = PARSER_REFUSALS[error.code ?? ''] ?? [
      400,
      'BAD_REQUEST' as const,
      () => 'The request is not valid HTTP.',
    ];
    // A request that timed out has no raw packet: its URL is that of the request being answered.
    const path =
      /^[A-Z]+ (\S+)/.exec(error.rawPacket?.toString('latin1', 0, 2048) ?? '')?.[1] ??
      answering?.req?.originalUrl ??
      '';
    const body = JSON.stringify(
      errorBodyOf(
        apiOf(path),
        status,
        code,
        message((server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize),
      ),
    );
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
