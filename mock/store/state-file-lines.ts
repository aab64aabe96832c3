// A line of the state file (mock/store/state-file.ts): JSON, a tab and its CRC-32, so a line cut off
// or damaged is told from one that was written whole.
import { crc32 } from 'node:zlib';
import type { Platform } from '../domain/platform.ts';

export const checksum = (json: string) => (crc32(json) >>> 0).toString(16).padStart(8, '0');
export const frame = (value: unknown) => {
  const json = JSON.stringify(value);
  return Buffer.from(`${json}\t${checksum(json)}\n`);
};

/**
 * The snapshot line. Its JSON is one string, which V8 caps at about 512 MB: the 100 000-user scale
 * seed takes 126 MB, a million users would take over a gigabyte and cannot be kept this way.
 */
export function snapshotLine(platform: Platform): Buffer {
  try {
    return frame({ snapshot: platform.snapshot() });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw Object.assign(
      new Error(
        'the platform state is too large to write as one snapshot (over 512 MB of JSON, about 400 000 users of the scale seed); run this seed without --state-file',
      ),
      { code: 'ETOOBIG' },
    );
  }
}

export function parseLine(line: Buffer): unknown {
  const tab = line.lastIndexOf(0x09);
  if (tab < 0) throw new Error('no checksum (truncated line?)');
  let json: string;
  try {
    json = line.subarray(0, tab).toString('utf8');
  } catch {
    throw new Error(`the line is too long to read (${line.length} bytes)`);
  }
  if (checksum(json) !== line.subarray(tab + 1).toString('latin1')) throw new Error('checksum mismatch');
  return JSON.parse(json);
}

/** The errors of a full disk or an exhausted quota. */
