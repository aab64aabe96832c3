// Durable state (docs/mock.md, Durable state): an append-only journal of commands behind a snapshot.
//
//   line 1      {"snapshot": <platform state>}\t<crc32>
//   line 2..n   {"t": <command>, "a": <args>, "at": <virtual time>}\t<crc32>
//
// Every command that succeeded is appended (synchronously, before the HTTP answer leaves), so a
// write that was acknowledged survives `kill -9`. At start the snapshot is loaded and the commands
// replayed. A torn last line (a write cut off before it was acknowledged) is reported and dropped; an
// unreadable line elsewhere stops the replay there and the file is kept aside. Never fatal.
// Compaction writes a new snapshot to a temporary file and renames it over the old one.
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { crc32 } from 'node:zlib';
import type { JournalEntry, Platform, Snapshot } from '../domain/platform.ts';

export interface OpenReport {
  /** Commands replayed from the journal. */
  replayed: number;
  /** Lines not replayed: a torn last line, or an unreadable line and everything after it. */
  skipped: { line: number; reason: string }[];
  /** True when the file did not exist (or was empty) and was started from the current state. */
  created: boolean;
  /** Where an unreadable file was copied before a fresh one was started. */
  keptAside?: string;
}

const checksum = (json: string) => (crc32(json) >>> 0).toString(16).padStart(8, '0');
const frame = (value: unknown) => {
  const json = JSON.stringify(value);
  return `${json}\t${checksum(json)}\n`;
};

function parseLine(line: string): unknown {
  const tab = line.lastIndexOf('\t');
  if (tab < 0) throw new Error('no checksum (truncated line?)');
  const json = line.slice(0, tab);
  if (checksum(json) !== line.slice(tab + 1)) throw new Error('checksum mismatch');
  return JSON.parse(json);
}

export class StateFile {
  private fd: number | null = null;
  private appended = 0;

  constructor(
    readonly path: string,
    /** Journal lines after which the file is compacted while running. */
    private readonly compactEvery = 10_000,
  ) {}

  /** Loads the file into the platform (or starts it from the platform's current state) and begins journalling. */
  open(platform: Platform): OpenReport {
    const report: OpenReport = { replayed: 0, skipped: [], created: false };
    const text = existsSync(this.path) ? readFileSync(this.path, 'utf8') : '';
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    let loaded = false;
    let damaged = false;
    for (const [i, line] of lines.entries()) {
      try {
        const value = parseLine(line) as { snapshot?: Snapshot } & JournalEntry;
        if (i === 0) {
          if (!value.snapshot) throw new Error('the first line is not a snapshot');
          loadSnapshot(platform, value.snapshot);
          loaded = true;
        } else {
          platform.replay(value);
          report.replayed++;
        }
      } catch (error) {
        report.skipped.push({ line: i + 1, reason: (error as Error).message });
        // A torn last line is a write that was never acknowledged. Anything else means the commands
        // after it would replay onto the wrong state: stop there and keep the file for a person.
        if (i < lines.length - 1 || i === 0) {
          damaged = true;
          if (i < lines.length - 1)
            report.skipped.push({
              line: i + 2,
              reason: `not replayed: lines ${i + 2}–${lines.length} follow an unreadable line`,
            });
          break;
        }
      }
    }
    report.created = !loaded;
    if (damaged) {
      report.keptAside = `${this.path}.corrupt-${Date.now()}`;
      copyFileSync(this.path, report.keptAside);
    }
    // Start every session from a fresh snapshot: it drops unreadable lines and keeps replay short.
    this.compact(platform);
    platform.setJournal((entry) => this.append(platform, entry));
    return report;
  }

  private append(platform: Platform, entry: JournalEntry): void {
    if (this.fd === null) return;
    writeSync(this.fd, frame(entry));
    if (++this.appended >= this.compactEvery) this.compact(platform);
  }

  /** Rewrites the file as one snapshot of the platform's current state. */
  compact(platform: Platform): void {
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w');
    writeSync(fd, frame({ snapshot: platform.snapshot() }));
    fsyncSync(fd);
    closeSync(fd);
    if (this.fd !== null) closeSync(this.fd);
    renameSync(tmp, this.path);
    this.fd = openSync(this.path, 'a');
    this.appended = 0;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** Checks the outline of a snapshot (from a file or the admin API) and loads it. */
export function loadSnapshot(platform: Platform, snapshot: Snapshot): void {
  if (snapshot?.format !== 'lmskit-state' || snapshot.version !== 1 || typeof snapshot.now !== 'number') {
    throw new Error('not an lmskit state snapshot (format lmskit-state, version 1)');
  }
  platform.load({ now: snapshot.now, tenants: Object.values(snapshot.tenants) });
}
