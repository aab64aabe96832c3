// The text a user search looks in (seed 000, find_user: a case-insensitive substring of the name or
// the e-mail), kept for the whole tenant as strings of 64 users each rather than one string per
// user: a search is a run of `indexOf` over a chunk, which jumps from match to match instead of
// testing users one by one.
//
// Each chunk also notes which trigrams (three characters in a row) its text contains, as 16 384
// bits of hashed trigrams. A match lies within one user's text, so a chunk lacking any trigram of
// the needle cannot hold a match and is skipped without being read: at a million users a query
// such as `weber12345` reads a few dozen of the 15 625 chunks instead of 45 MB of text. Hashing
// makes the bits a filter only (two trigrams may share a bit), so the answer is still what
// `indexOf` finds in the chunks read: the same users in the same order as testing every user. A
// needle under three characters has no trigram and reads every chunk. The bits take 2 KB per
// chunk, 32 bytes per user.
//
// Each user's text is `name\nemail` lower-cased, and users are separated by a NUL, which no needle
// here contains (`matches` refuses one), so a match never spans two users. Chunks follow the users'
// creation order, the order answers list them in. A new user is appended to the last chunk; a
// changed name or e-mail marks the whole index for rebuilding on the next search (rare writes, and
// a rebuild is one pass over the users).
import type { User } from './model.ts';

const CHUNK = 64;
const SEPARATOR = '\u0000';
const TRIGRAM_BITS = 14;

interface Chunk {
  /** The users' ids: a scale seed's users are made when read (user-table.ts), so none is held here. */
  ids: number[];
  /** The chunk's text, null until the next search needs it. */
  text: string | null;
  /** Where each user's text starts in `text`. */
  starts: number[];
  /** The hashed trigrams of `text`, one bit each; kept up to date with `ids` (users are never removed). */
  trigrams: Uint32Array;
}

/** The bit of the trigram that starts at `at` (three UTF-16 code units, hashed to TRIGRAM_BITS). */
const trigramAt = (text: string, at: number) =>
  Math.imul(
    text.charCodeAt(at) ^ (text.charCodeAt(at + 1) << 7) ^ (text.charCodeAt(at + 2) << 14),
    0x9e3779b1,
  ) >>>
  (32 - TRIGRAM_BITS);

function noteTrigrams(bits: Uint32Array, text: string): void {
  for (let at = 0; at + 2 < text.length; at++) {
    const bit = trigramAt(text, at);
    bits[bit >>> 5] = (bits[bit >>> 5] as number) | (1 << (bit & 31));
  }
}

const hasAll = (bits: Uint32Array, needed: number[]) =>
  needed.every((bit) => ((bits[bit >>> 5] as number) & (1 << (bit & 31))) !== 0);

export const userText = (user: User) => `${user.name}\n${user.email}`.toLowerCase();

export class UserSearchIndex {
  private chunks: Chunk[] = [];
  private stale = true;
  /** How many times the index was built from every user; a guard asserts searches do not rebuild it. */
  rebuilds = 0;

  constructor(
    private readonly allUsers: () => Iterable<User>,
    private readonly userOf: (id: number) => User,
  ) {}

  added(user: User): void {
    if (this.stale) return;
    let last = this.chunks.at(-1);
    if (!last || last.ids.length >= CHUNK) {
      last = { ids: [], text: null, starts: [], trigrams: new Uint32Array(1 << (TRIGRAM_BITS - 5)) };
      this.chunks.push(last);
    }
    last.ids.push(user.id);
    last.text = null;
    noteTrigrams(last.trigrams, userText(user));
  }

  changed(): void {
    this.stale = true;
  }

  /** Whether `needle` (already lower-cased) can be searched here; a NUL would cross users. */
  static matches(needle: string): boolean {
    return !needle.includes(SEPARATOR);
  }

  /** The first `limit` users whose text contains `needle` (lower-cased), in creation order, and how many do. */
  search(needle: string, limit: number): { found: User[]; total: number } {
    if (this.stale) this.rebuild();
    const found: User[] = [];
    let total = 0;
    const needed: number[] = [];
    for (let at = 0; at + 2 < needle.length; at++) needed.push(trigramAt(needle, at));
    for (const chunk of this.chunks) {
      if (!hasAll(chunk.trigrams, needed)) continue;
      const text = this.textOf(chunk);
      let at = text.indexOf(needle);
      while (at >= 0) {
        const i = lastStartAtOrBefore(chunk.starts, at);
        total++;
        if (found.length < limit) found.push(this.userOf(chunk.ids[i] as number));
        // The next match must start in a later user: one count per user.
        const next = chunk.starts[i + 1];
        if (next === undefined) break;
        at = text.indexOf(needle, next);
      }
    }
    return { found, total };
  }

  private rebuild(): void {
    this.rebuilds++;
    this.chunks = [];
    this.stale = false;
    for (const user of this.allUsers()) this.added(user);
  }

  private textOf(chunk: Chunk): string {
    if (chunk.text === null) {
      let text = '';
      chunk.starts = [];
      for (const id of chunk.ids) {
        chunk.starts.push(text.length);
        text += userText(this.userOf(id)) + SEPARATOR;
      }
      chunk.text = text;
    }
    return chunk.text;
  }
}

/** The index of the last start ≤ `at` (bisection over ascending starts). */
function lastStartAtOrBefore(starts: number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if ((starts[mid] as number) <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}
