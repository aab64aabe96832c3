// Which files upload_source_material may read (docs/mcp.md, "Security"). The tool takes an absolute
// path on the tool server's machine (seed 000, AI tools: "<absolute local file path>"). Over stdio
// that machine is the agent's own and the agent started the server, so any path its user can read
// is the agent's to give. Over Streamable HTTP the caller is a client elsewhere: a path would let it
// read any file of the server's user, so there the tool reads only inside a directory the operator
// names (`--upload-root`), judged by resolved real path, and without one reads nothing.
// No answer tells a missing file from an unreadable one or from one outside the root, and none
// carries the operating system's error text: either would tell a client what exists on the machine.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { open, readlink, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { detectType, MAX_UPLOAD_BYTES } from '../lib/file-types.ts';

/** Where a tool server may read uploads: any path (stdio), only inside a directory (real path), or nowhere. */
export type UploadAccess = { kind: 'any-path' } | { kind: 'inside'; root: string } | { kind: 'off' };

export const ANY_PATH: UploadAccess = { kind: 'any-path' };
export const UPLOADS_OFF: UploadAccess = { kind: 'off' };

/**
 * The real path of an upload root, or an Error saying, in one sentence, that `dir` is no directory
 * this process can list and read; the operating system's reason is not shown (the path says enough).
 */
export function uploadRootOf(dir: string): string {
  // An empty path would resolve to the current directory: a root nobody named.
  if (dir.trim() === '') throw new Error('--upload-root takes a directory; it is empty');
  try {
    const real = realpathSync(resolve(dir));
    if (!statSync(real).isDirectory()) throw new Error('not a directory');
    accessSync(real, constants.R_OK | constants.X_OK);
    return real;
  } catch {
    throw new Error(`--upload-root takes a directory the tool server can read, and ${dir} is not one`);
  }
}

export const uploadsOffMessage =
  'Uploads by file path are off on this tool server: over HTTP it reads files only inside a directory its operator names with --upload-root DIR when starting lmskit mcp --http.';

/** The one refusal of a path that cannot be read, whatever the reason (missing, unreadable, outside the root, no regular file). */
function unavailable(path: string, access: UploadAccess): string {
  return access.kind === 'inside'
    ? `No file at ${path} that this tool server can read: over HTTP it reads only regular files inside its upload root ${access.root}.`
    : `No file at ${path} that this tool server can read.`;
}

const tooLarge = (path: string, size: string) =>
  `${path} is ${size}; the limit is 20 MB (${MAX_UPLOAD_BYTES} bytes).`;

/** Whether `real` lies strictly inside the directory `root` (both real paths). */
export function isInside(root: string, real: string): boolean {
  const rel = relative(root, real);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Opened without following a last symlink and without blocking on a FIFO; Windows has neither flag. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const CHUNK_BYTES = 1024 * 1024;

/**
 * Seed 000, Upload constraints: an absolute path to an existing file of an allowed type, at most
 * 20 MB; read within what `access` allows. Answers the file, or the sentence to tell the agent.
 */
export async function readUpload(
  path: string,
  access: UploadAccess,
): Promise<{ data: Buffer; name: string; type: string } | string> {
  if (!isAbsolute(path)) return `filePath must be an absolute path; got "${path}".`;
  if (access.kind === 'off') return uploadsOffMessage;
  const real = await realpath(path).catch(() => null);
  if (!real || (access.kind === 'inside' && !isInside(access.root, real))) return unavailable(path, access);
  // Only a regular file is opened at all: opening a device or a FIFO may block or act.
  const before = await stat(real).catch(() => null);
  if (!before?.isFile()) return unavailable(path, access);
  const handle = await open(real, OPEN_FLAGS).catch(() => null);
  if (!handle) return unavailable(path, access);
  try {
    // The file opened must be the one judged: a path swapped between the two is refused. Where the
    // system names an open file's path (Linux), that path must still lie inside the root, so not
    // even a directory swapped for a symlink during the check leads out of it.
    const info = await handle.stat();
    if (!info.isFile() || info.ino !== before.ino || info.dev !== before.dev)
      return unavailable(path, access);
    if (access.kind === 'inside') {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
      if (opened !== null && !isInside(access.root, opened)) return unavailable(path, access);
    }
    if (info.size > MAX_UPLOAD_BYTES) return tooLarge(path, `${info.size} bytes`);
    // Read to the end, not to the size stat gave: files of /proc and growing files say another size.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, MAX_UPLOAD_BYTES + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > MAX_UPLOAD_BYTES) return tooLarge(path, 'over 20 MB');
    }
    const data = Buffer.concat(chunks, total);
    const type = detectType(data);
    if (!type) return `${path} is not a PDF, DOC, DOCX, PNG, JPG, GIF or WebP file (judged by its content).`;
    return { data, name: basename(path), type };
  } catch {
    return unavailable(path, access);
  } finally {
    await handle.close().catch(() => {});
  }
}
