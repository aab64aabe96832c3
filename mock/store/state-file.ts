// Durable state (docs/mock.md, Durable state): an append-only command log behind a snapshot.
//
//   line 1      {"snapshot": <platform state>}\t<crc32>
//   line 2..n   {"t": <command>, "a": <args>, "at": <virtual time>}\t<crc32>
//
// A command's line is written, completely, before the command runs (Platform.run), so a write that
// was answered 2xx survives `kill -9`. A write that fails or comes up short (a full disk) is cut back
// off the file and the command does not run: memory and file still agree, and the client gets a 503
// to retry. A command that is then refused takes its line back.
//
// At start the snapshot is loaded and the commands replayed. A last line without its newline is a
// write cut off before it was answered: it is reported and dropped. Any other unreadable line is
// damage: `open` stops with StateFileDamaged, which says where and what could be read, and changes
// nothing — unless asked to recover, which copies the damaged file aside and starts from the readable
// part. A path that cannot hold the file (a directory, a missing or read-only directory) is a
// StateFileUnusable, a one-sentence error. So the file never silently starts over.
//
// A command-log line holding a command this version does not know was written by a newer lmskit: it
// stops the start like damage (StateFileFromNewerVersion), since replaying past it would lose what it
// did and the next compaction would drop it for good; `recover` skips such lines after keeping a copy
// of the file aside.
//
// The path is a regular file or a new one. A symbolic link is resolved first and the file it points
// at is read, compacted and renamed over, so the link stays a link (a rename over the link replaced
// it with a regular file, and the target was never written again); anything else (a FIFO, a device,
// a socket) is refused before it is opened, since opening a FIFO waits for a writer and reading a
// device like /dev/zero never ends.
//
// A line is written with `write`, which the kernel keeps once it returns: it survives `kill -9` but
// not a power cut. With `fsync`, lines are also flushed to the disk with `fdatasync`, in batches
// (group commit): one flush covers every line written before it started, lines written meanwhile
// join the next one, and `durable()` settles once the lines written so far are flushed, which a
// write's answer waits for (Platform.durable). Compaction then also flushes the directory after its
// rename, so the new file's name survives a power cut too.
//
// Compaction writes a fresh snapshot to a temporary file and renames it over the old one: at start,
// once the command log has grown as large as the snapshot before it, and at shutdown. Sized by bytes, so
// that writing snapshots costs each logged byte at most one byte more: a snapshot is written in one
// piece while nothing else runs (0.7 s and 126 MB at 100 000 users), and with a fixed count of
// commands a growing state was written out again every 10 000 writes, the last one blocking for
// longer each time. `compactEvery` sets a count of commands instead. One that fails while running is reported and retried
// later; the command log goes on, since every line it holds is still in the file.
import * as nodeFs from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DomainError } from '../domain/errors.ts';
import {
  type CommandLog,
  type CommandLogEntry,
  CommandLogError,
  type Platform,
  UnknownCommand,
} from '../domain/platform.ts';
import {
  type Damage,
  type OpenReport,
  StateFileDamaged,
  StateFileFromNewerVersion,
  StateFileUnusable,
} from './state-file-errors.ts';
import { frame, parseLine, snapshotLine } from './state-file-lines.ts';

export * from './state-file-errors.ts';

/** The file-system calls the state file makes; tests inject failures through it. */
export type StateFileFs = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'writeSync'
  | 'ftruncateSync'
  | 'fsyncSync'
  | 'closeSync'
  | 'renameSync'
  | 'rmSync'
  | 'readFileSync'
  | 'copyFileSync'
  | 'statSync'
  | 'lstatSync'
  | 'realpathSync'
  | 'fdatasync'
>;

export interface StateFileOptions {
  /** Command-log lines after which the file is compacted while running (default: by size, see above). */
  compactEvery?: number;
  /** How long after a failed compaction the next one is tried. */
  compactionRetryMs?: number;
  fs?: StateFileFs;
  /** Where compaction trouble is reported (stderr by default). */
  warn?: (message: string) => void;
  /** Flush every line to the disk before the write it holds is answered (`--fsync`; see above). */
  fsync?: boolean;
  /**
   * Told when a flush failed: the lines written since the last one may not be on disk, though their
   * commands ran, so what memory holds can no longer be vouched for. `lmskit mock` stops.
   */
  onSyncFailure?: (message: string) => void;
}

const FULL = new Set(['ENOSPC', 'EDQUOT']);

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

export class StateFile {
  private readonly fs: StateFileFs;
  private readonly compactEvery: number | undefined;
  private readonly compactionRetryMs: number;
  private readonly warn: (message: string) => void;
  private platform: Platform | null = null;
  private fd: number | null = null;
  /** Bytes of the file that hold complete lines; the next line is written here. */
  private size = 0;
  /** Where the last appended line starts, so a refused command can take it back. */
  private lastLineStart = 0;
  private sinceCompaction = 0;
  /** The bytes of the last snapshot written: the command log after it may grow as large before the next. */
  private snapshotBytes = 0;
  /** The file's tail could not be cut back: it must be rewritten before anything more is appended. */
  private broken = false;
  private compactionFailing = false;
  private nextCompactionTry = 0;
  /** The file itself: the path with symbolic links resolved (resolvePath), or the path when new. */
  private file: string;
  private readonly fsync: boolean;
  private readonly onSyncFailure: ((message: string) => void) | undefined;
  /** Lines written so far, and how many of them a completed flush covers (`fsync`). */
  private written = 0;
  private flushed = 0;
  /** The descriptor a flush is under way on, if any: it is closed only once the flush is done. */
  private flushing: number | null = null;
  /** Answers waiting for their line to be flushed. */
  private waiting: { upTo: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  /** A flush failed: nothing more is taken (see onSyncFailure). */
  private flushFailed: CommandLogError | null = null;

  constructor(
    readonly path: string,
    options: StateFileOptions = {},
  ) {
    this.fs = options.fs ?? nodeFs;
    this.compactEvery = options.compactEvery;
    this.compactionRetryMs = options.compactionRetryMs ?? 60_000;
    this.warn = options.warn ?? ((message) => console.warn(message));
    this.file = path;
    this.fsync = options.fsync ?? false;
    this.onSyncFailure = options.onSyncFailure;
  }

  /**
   * Loads the file into the platform (or starts it from the platform's current state) and begins
   * logging. Throws StateFileDamaged (nothing changed on disk) unless `recover`, and
   * StateFileUnusable when the path cannot hold the file.
   */
  open(platform: Platform, options: { recover?: boolean } = {}): OpenReport {
    const data = this.read();
    const report: OpenReport = { replayed: 0, created: true, refused: [] };
    let damage: Omit<Damage, 'lines'> | null = null;
    let start = 0;
    let line = 0;
    /** Where the lines that were used end: the file can go on from there. */
    let usedEnd = 0;
    const unknown: { line: number; command: string }[] = [];
    while (start < data.length && !damage) {
      const newline = data.indexOf(0x0a, start);
      const end = newline < 0 ? data.length : newline;
      const text = data.subarray(start, end);
      start = end + 1;
      line++;
      let value: { snapshot?: unknown } & CommandLogEntry;
      try {
        value = parseLine(text) as typeof value;
        if (line === 1 && !value.snapshot) throw new Error('the first line is not a snapshot');
      } catch (error) {
        // A snapshot is never written in place (compaction renames a complete file), so only a
        // command-log line can be cut off by a crash.
        if (newline < 0 && line > 1) report.torn = { line, reason: (error as Error).message };
        else
          damage = {
            line,
            reason: (error as Error).message,
            snapshotRead: line > 1,
            replayed: report.replayed,
          };
        break;
      }
      if (newline < 0) {
        // Complete but for its newline: the write stopped before the command could be answered.
        report.torn = { line, reason: 'no newline at the end' };
        break;
      }
      if (line === 1) {
        try {
          platform.loadSnapshot(value.snapshot as Parameters<Platform['loadSnapshot']>[0]);
          report.created = false;
        } catch (error) {
          damage = { line, reason: (error as Error).message, snapshotRead: false, replayed: 0 };
          break;
        }
      } else {
        try {
          platform.replay(value);
          report.replayed++;
        } catch (error) {
          if (error instanceof UnknownCommand) {
            if (!options.recover)
              throw new StateFileFromNewerVersion(
                this.path,
                this.file,
                line,
                countLines(data),
                error.command,
              );
            unknown.push({ line, command: error.command });
          } else if (error instanceof DomainError) {
            // Refused by the platform's rules, as it was when it first ran: the process stopped before
            // taking its line back (`retract`).
            report.refused.push({ line, reason: (error as Error).message });
          } else {
            // Failing for a reason the platform's rules never give (arguments of the wrong shape), the
            // line is not what this lmskit wrote: damage, as an unreadable line is.
            damage = {
              line,
              reason: `the ${String(value.t)} command cannot be replayed: ${(error as Error).message}`,
              snapshotRead: true,
              replayed: report.replayed,
            };
            break;
          }
        }
      }
      usedEnd = start;
    }
    if (damage) {
      const full: Damage = { ...damage, lines: countLines(data) };
      if (!options.recover) throw new StateFileDamaged(this.path, full, this.file);
      report.recovered = { ...full, keptAside: this.keepAside('corrupt', 'keep a copy of the damaged file') };
    }
    if (unknown.length)
      report.unknown = {
        lines: unknown,
        keptAside:
          report.recovered?.keptAside ?? this.keepAside('newer', 'keep a copy of the file as it was'),
      };
    // Start every session from a fresh snapshot: it drops what was not replayed and keeps replay short.
    try {
      this.compact(platform);
    } catch (error) {
      // A full disk has no room for a second copy, but the file itself can go on where its used
      // lines end (writes are refused until there is room again). Any other failure is the path's.
      if (!FULL.has(errorCode(error)) || usedEnd === 0) {
        throw new StateFileUnusable(
          this.path,
          `write files in ${dirname(resolve(this.path))}`,
          error as NodeJS.ErrnoException,
        );
      }
      this.continueAt(usedEnd);
      this.warn(
        `state file ${this.path}: no room for a fresh snapshot (${errorCode(error)}); going on with the file as it is.`,
      );
    }
    this.platform = platform;
    platform.setCommandLog(this.commandLog);
    return report;
  }

  /** Goes on logging into the file as it is, after its first `size` bytes; compacts at the first chance. */
  private continueAt(size: number): void {
    this.fd = this.fs.openSync(this.file, 'r+');
    this.cutBack(size);
    this.size = size;
    this.lastLineStart = size;
    this.sinceCompaction = Number.POSITIVE_INFINITY;
  }

  /** Copies the file beside itself before `recover` rewrites it; answers the copy's path. */
  private keepAside(kind: string, doing: string): string {
    const keptAside = `${this.file}.${kind}-${new Date().toISOString().replaceAll(':', '-')}`;
    try {
      this.fs.copyFileSync(this.file, keptAside);
    } catch (error) {
      throw new StateFileUnusable(this.path, doing, error as NodeJS.ErrnoException);
    }
    return keptAside;
  }

  private read(): Buffer {
    try {
      if (!this.resolvePath()) return Buffer.alloc(0);
      return this.fs.readFileSync(this.file);
    } catch (error) {
      if (error instanceof StateFileUnusable) throw error;
      throw new StateFileUnusable(this.path, 'read it', error as NodeJS.ErrnoException);
    }
  }

  /**
   * Sets `file` to what the path names once symbolic links are followed, and answers whether it
   * exists. Refuses, before anything is opened, a path that is no regular file and no new one.
   */
  private resolvePath(): boolean {
    const refuse = (what: string, code = 'ENOTREG') =>
      new StateFileUnusable(this.path, 'use it', Object.assign(new Error(what), { code }));
    let stat: nodeFs.Stats;
    try {
      stat = this.fs.lstatSync(this.path);
    } catch (error) {
      if (errorCode(error) === 'ENOENT' && this.parentExists(this.path)) {
        this.file = this.path;
        return false;
      }
      throw error;
    }
    if (stat.isSymbolicLink()) {
      try {
        this.file = this.fs.realpathSync(this.path);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error;
        throw refuse(
          `it is a symbolic link to ${nodeFs.readlinkSync(this.path)}, which does not exist; create the file it names or give that path`,
        );
      }
      stat = this.fs.statSync(this.file);
    } else this.file = this.path;
    if (stat.isFile()) return true;
    if (stat.isDirectory()) throw refuse('is a directory', 'EISDIR');
    const kind = stat.isFIFO()
      ? 'a FIFO (named pipe)'
      : stat.isCharacterDevice() || stat.isBlockDevice()
        ? 'a device'
        : stat.isSocket()
          ? 'a socket'
          : 'not a file';
    throw refuse(`it is ${kind}, not a regular file; give the path of a file (it is created when missing)`);
  }

  private parentExists(path: string): boolean {
    try {
      return this.fs.statSync(dirname(resolve(path))).isDirectory();
    } catch {
      return false;
    }
  }

  private readonly commandLog: CommandLog = {
    append: (entry) => this.append(entry),
    retract: () => this.cutBack(this.lastLineStart),
    durable: () => this.durable(),
  };

  /**
   * With `fsync`: settles once every line written so far is flushed to disk; undefined when they
   * are already, or without `fsync` (a line is then kept once `write` returned).
   */
  durable(): Promise<void> | undefined {
    if (!this.fsync) return undefined;
    if (this.flushFailed) return Promise.reject(this.flushFailed);
    const upTo = this.written;
    if (upTo <= this.flushed) return undefined;
    if (this.fd === null) return Promise.reject(new CommandLogError('The state file is closed.'));
    const settled = new Promise<void>((resolve, reject) => this.waiting.push({ upTo, resolve, reject }));
    this.flush();
    return settled;
  }

  /** Starts a flush of every line written so far, unless one is under way: the lines it did not cover start the next. */
  private flush(): void {
    if (this.flushing !== null || this.fd === null || this.flushFailed) return;
    const fd = this.fd;
    const upTo = this.written;
    this.flushing = fd;
    this.fs.fdatasync(fd, (error) => {
      this.flushing = null;
      const replaced = fd !== this.fd;
      if (replaced) {
        // Compaction or close replaced this descriptor meanwhile, and left it open for this flush.
        quietly(() => this.fs.closeSync(fd));
      }
      // A compaction since has put what this flush was for on disk in a snapshot of its own.
      if (error && !(replaced && upTo <= this.flushed)) return this.failFlush(error);
      this.flushedUpTo(upTo);
      if (this.waiting.length) this.flush();
    });
  }

  private flushedUpTo(upTo: number): void {
    this.flushed = Math.max(this.flushed, upTo);
    const settled = this.waiting.filter((w) => w.upTo <= this.flushed);
    this.waiting = this.waiting.filter((w) => w.upTo > this.flushed);
    for (const w of settled) w.resolve();
  }

  private failFlush(error: NodeJS.ErrnoException): void {
    const message = `flushing the state file ${this.path} to disk failed (${errorCode(error)}): the writes since the last flush may not be on disk, though they were applied`;
    this.flushFailed = new CommandLogError(
      `The change may not have been saved: ${message}. Nothing more is taken; the mock has to be restarted.`,
    );
    for (const w of this.waiting.splice(0)) w.reject(this.flushFailed);
    this.onSyncFailure?.(`${message}. The mock stops: start it again to continue from what the file holds.`);
  }

  private append(entry: CommandLogEntry): void {
    if (this.fd === null || !this.platform) throw new CommandLogError('The state file is closed.');
    if (this.flushFailed) throw this.flushFailed;
    if (this.compactionDue() || this.broken) this.tryCompaction(this.platform);
    if (this.broken) throw notSaved(this.broken);
    const line = frame(entry);
    try {
      this.writeFully(this.fd, line, this.size);
    } catch (error) {
      this.cutBack(this.size);
      throw notSaved(error);
    }
    this.lastLineStart = this.size;
    this.size += line.length;
    this.sinceCompaction++;
    this.written++;
  }

  private compactionDue(): boolean {
    if (this.compactEvery !== undefined) return this.sinceCompaction >= this.compactEvery;
    return this.sinceCompaction === Number.POSITIVE_INFINITY || this.size >= 2 * this.snapshotBytes;
  }

  /** Cuts the file back to `size` bytes; if even that fails, it is rewritten before the next append. */
  private cutBack(size: number): void {
    if (this.fd === null) return;
    try {
      this.fs.ftruncateSync(this.fd, size);
      this.size = size;
    } catch {
      this.broken = true;
    }
  }

  private writeFully(fd: number, data: Buffer, position: number): void {
    for (let done = 0; done < data.length; ) {
      const written = this.fs.writeSync(fd, data, done, data.length - done, position + done);
      if (written <= 0) throw Object.assign(new Error('nothing was written'), { code: 'EIO' });
      done += written;
    }
  }

  /** Compacts when due; a failure is reported, retried after a while, and does not stop the command log. */
  private tryCompaction(platform: Platform): void {
    if (Date.now() < this.nextCompactionTry) return;
    try {
      this.compact(platform);
      if (this.compactionFailing) this.warn(`state file ${this.path}: compaction works again.`);
      this.compactionFailing = false;
    } catch (error) {
      this.compactionFailing = true;
      this.nextCompactionTry = Date.now() + this.compactionRetryMs;
      this.warn(
        `state file ${this.path}: compaction failed (${errorCode(error)}): ${(error as Error).message}. ` +
          `Nothing is lost: every write is in the journal, which goes on growing; retrying in ${Math.round(this.compactionRetryMs / 1000)} s.`,
      );
    }
  }

  /** Rewrites the file as one snapshot of the platform's current state; throws when it cannot. */
  compact(platform: Platform): void {
    // Beside the file itself, so that the rename stays on its file system and replaces the file, not
    // a symbolic link to it.
    const tmp = `${this.file}.tmp`;
    const data = snapshotLine(platform);
    const fd = this.fs.openSync(tmp, 'w');
    try {
      this.writeFully(fd, data, 0);
      this.fs.fsyncSync(fd);
      this.fs.renameSync(tmp, this.file);
    } catch (error) {
      quietly(() => this.fs.closeSync(fd));
      quietly(() => this.fs.rmSync(tmp, { force: true }));
      throw error;
    }
    if (this.fsync) this.flushDirectory();
    // The new file keeps the descriptor it was written through: no reopening that could fail.
    this.closeCurrent();
    this.fd = fd;
    this.size = data.length;
    this.snapshotBytes = data.length;
    this.lastLineStart = this.size;
    this.sinceCompaction = 0;
    this.broken = false;
    // The snapshot holds every command run so far, and it is on disk.
    this.flushedUpTo(this.written);
  }

  /**
   * Flushes the directory, so that the rename itself survives a power cut: until then the directory
   * may still name the old file, without the lines written into the new one. A file system that
   * cannot flush a directory (EINVAL) keeps its renames as it does.
   */
  private flushDirectory(): void {
    const dir = this.fs.openSync(dirname(resolve(this.file)), 'r');
    try {
      this.fs.fsyncSync(dir);
    } catch (error) {
      if (errorCode(error) !== 'EINVAL') throw error;
    } finally {
      quietly(() => this.fs.closeSync(dir));
    }
  }

  /** Closes the current descriptor, or leaves it to the flush under way on it. */
  private closeCurrent(): void {
    if (this.fd === null) return;
    // A flush under way closes it when it is done (see flush).
    if (this.flushing !== this.fd) quietly(() => this.fs.closeSync(this.fd as number));
  }

  /** Closes the file; later writes are refused (503), never answered without being kept. */
  close(): void {
    this.closeCurrent();
    this.fd = null;
    for (const w of this.waiting.splice(0)) w.reject(new CommandLogError('The state file is closed.'));
  }
}

function quietly(action: () => void): void {
  try {
    action();
  } catch {}
}

/** Seconds a client is asked to wait before retrying a write that was not saved. */
const RETRY_AFTER = 10;

function notSaved(cause: unknown): CommandLogError {
  const why =
    cause === true
      ? 'the end of the state file could not be repaired'
      : `writing the state file failed (${errorCode(cause)})`;
  return new CommandLogError(
    `The change was not saved: ${why}. Nothing was changed; retry after ${RETRY_AFTER}s.`,
    RETRY_AFTER,
  );
}

function countLines(data: Buffer): number {
  let lines = 0;
  for (let at = data.indexOf(0x0a); at >= 0; at = data.indexOf(0x0a, at + 1)) lines++;
  return data.length && data[data.length - 1] !== 0x0a ? lines + 1 : lines;
}
