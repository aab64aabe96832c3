// A request whose body stalls, as the stalled-body tests of the mock (test/e2e/) and of the tool
// server (test/mcp/) send it: ~1 MB of a body announced a little longer, then nothing more; and the
// resident memory of the server it was sent to.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** Under the 1 MB body limit, so the length alone refuses nothing. */
const BODY_LENGTH = 1024 * 1024 - 1024;
/** ~1 MB of it, then nothing more. */
const SENT = Buffer.alloc(1000 * 1000, 'x');

/** The resident memory of a process, in bytes (Linux). */
export const residentBytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;

export interface Stalled {
  /** What the server sent back (its status line first, if it answered). */
  received: () => string;
  /**
   * The status the server answered with, once its status line came, or `none` when it closed the
   * connection without one: a wait for what the server does, however busy the machine is.
   */
  answered: Promise<string>;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
  /** Resolves when every byte sent was handed to the operating system. */
  flushed: Promise<void>;
}

/** A POST to `path` on 127.0.0.1:`port`, from `from` if given, whose body stops short and never comes. */
export function stalledPost(
  port: number,
  path: string,
  headers: Record<string, string>,
  from?: string,
): Stalled {
  const socket = connect({ port, host: '127.0.0.1', ...(from ? { localAddress: from } : {}) });
  let received = '';
  const status = () => /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
  let answer: (status: string) => void = () => {};
  const answered = new Promise<string>((resolve) => (answer = resolve));
  socket.setEncoding('latin1');
  socket.on('data', (c) => {
    received += c;
    const code = status();
    if (code) answer(code);
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      answer(status() ?? 'none');
      resolve();
    }),
  );
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Content-Type: application/json',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${BODY_LENGTH}`,
    '',
    '',
  ].join('\r\n');
  socket.write(head);
  const flushed = new Promise<void>((resolve) => socket.write(SENT, () => resolve()));
  return { received: () => received, answered, closed, flushed };
}
