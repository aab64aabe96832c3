// What opening a state file reports (mock/store/state-file.ts): the damage found, the report of a
// start, and the three ways a start stops, each one sentence or paragraph with its exit code
// (docs/mock.md, Durable state).
import { dirname, resolve } from 'node:path';
import { UnknownCommand } from '../domain/platform.ts';

export interface Damage {
  /** The first unreadable line (1-based) and why. */
  line: number;
  reason: string;
  /** Lines in the file. */
  lines: number;
  /** Whether the snapshot (line 1) could be read, and how many commands after it were replayed. */
  snapshotRead: boolean;
  replayed: number;
}

export interface OpenReport {
  /** Commands replayed from the command log. */
  replayed: number;
  /** True when the file did not exist (or was empty) and was started from the current state. */
  created: boolean;
  /** A last line cut off before its newline: a write that was never answered, dropped. */
  torn?: { line: number; reason: string };
  /** Logged commands refused again on replay: they changed nothing when first run either. */
  refused: { line: number; reason: string }[];
  /** With `recover`: the damage accepted, and where the damaged file was copied. */
  recovered?: Damage & { keptAside: string };
  /** With `recover`: lines of a newer lmskit that were skipped, and where the file as it was is kept. */
  unknown?: { lines: { line: number; command: string }[]; keptAside: string };
}

/** The file is damaged; nothing was changed. The message is the paragraph a person needs. */
export class StateFileDamaged extends Error {
  /** The exit code of `lmskit mock` (docs/mock.md). */
  readonly exitCode = 3;
  constructor(
    readonly path: string,
    readonly damage: Damage,
    /** The file itself, where the copy goes (the path may be a symbolic link to it). */
    file = path,
  ) {
    const { line, reason, lines, snapshotRead, replayed } = damage;
    const readable = !snapshotRead
      ? 'nothing: without its snapshot no line of it can be used, so recovering starts from a fresh seed'
      : `the snapshot and the ${replayed} command(s) journalled after it, up to line ${line - 1}`;
    const lost =
      line < lines
        ? ` Lines ${line} to ${lines} cannot be used, since the commands after a damaged line would replay onto the wrong state.`
        : '';
    super(
      `The state file ${path} is damaged at line ${line} of ${lines} (${reason}). What can be read: ${readable}.${lost} ` +
        'Nothing was changed and the mock did not start. To start from what can be read, run again with --recover: ' +
        `the damaged file is then copied to ${file}.corrupt-<time> and ${path} is rewritten from the readable part. ` +
        'To start over instead, move the file away.',
    );
    this.name = 'StateFileDamaged';
  }
}

/** A line holds a command of a newer lmskit; nothing was changed. The message is the paragraph a person needs. */
export class StateFileFromNewerVersion extends Error {
  /** The exit code of `lmskit mock` (docs/mock.md): the file cannot be used as it is. */
  readonly exitCode = 3;
  constructor(path: string, file: string, line: number, lines: number, command: string) {
    super(
      `The state file ${path} holds at line ${line} of ${lines} the command ${command}, which this version of lmskit does not know: a newer lmskit wrote it. ` +
        'Nothing was changed and the mock did not start. Run the newer lmskit on it; or, to start without the commands this version does not know, ' +
        `run again with --recover: the file is then copied to ${file}.newer-<time> and ${path} is rewritten without them.`,
    );
    this.name = 'StateFileFromNewerVersion';
  }
}

/** The path cannot hold a state file; the message is one sentence. */
export class StateFileUnusable extends Error {
  /** The exit code of `lmskit mock` (docs/mock.md). */
  readonly exitCode = 2;
  constructor(path: string, doing: string, error: NodeJS.ErrnoException) {
    const dir = dirname(resolve(path));
    const why: Record<string, string> = {
      ENOENT: `the directory ${dir} does not exist`,
      ENOTDIR: `a part of ${dir} is not a directory`,
      EISDIR: 'it is a directory; give the path of a file (it is created when missing)',
      EACCES: `this process may not ${doing}`,
      EPERM: `this process may not ${doing}`,
      EROFS: `${dir} is on a read-only file system`,
      ETOOBIG: `${error.message}`,
      // Raised by StateFile.resolvePath, whose message says what the path is.
      ENOTREG: `${error.message}`,
    };
    super(
      `The state file ${path} cannot be used: ${why[error.code ?? ''] ?? `cannot ${doing} (${error.message})`}.`,
    );
    this.name = 'StateFileUnusable';
  }
}

/** What a person should hear about an opened file: what was dropped, skipped or recovered. */
export function openWarnings(path: string, report: OpenReport): string[] {
  const warnings = report.refused.map((r) => `state file ${path}: skipped line ${r.line}: ${r.reason}`);
  if (report.unknown) {
    for (const { line, command } of report.unknown.lines)
      warnings.push(`state file ${path}: skipped line ${line}: ${new UnknownCommand(command).message}.`);
    warnings.push(`state file ${path}: the file as it was is kept at ${report.unknown.keptAside}.`);
  }
  if (report.torn)
    warnings.unshift(
      `state file ${path}: dropped line ${report.torn.line}, a write cut off before it was answered (${report.torn.reason})`,
    );
  if (report.recovered) {
    const { line, reason, lines, keptAside } = report.recovered;
    const after = line < lines ? ` and the ${lines - line} line(s) after it were` : ' was';
    warnings.push(
      `state file ${path}: recovered what could be read; line ${line} (${reason})${after} left out. The damaged file is kept at ${keptAside}.`,
    );
  }
  return warnings;
}
