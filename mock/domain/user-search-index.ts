// The text a user search looks in (seed 000, find_user: a case-insensitive substring of the name or
// the e-mail), kept for the whole tenant as strings of 64 users each rather than one string per
// user: a search is a run of `indexOf` over a chunk, which jumps from match to match instead of
// testing users one by one.
//
// The index also notes which trigrams (three characters in a row) each chunk's text contains,
// hashed to 16 384 bits. A match lies within one user's text, so a chunk lacking any trigram of the
// needle cannot hold a match and is skipped without being read: at a million users a query such as
// `weber12345` reads a few of the 15 625 chunks instead of 45 MB of text. Hashing makes the bits a
// filter only (two trigrams may share a bit), so the answer is still what `indexOf` finds in the
// chunks read: the same users in the same order as testing every user. A needle under three
// characters has no trigram and reads every chunk.
//
// The bits are kept by trigram, not by chunk: a row per trigram bit, with a word per run of 32
// chunks whose bit c says whether the run's chunk c holds the trigram. A search ANDs the needle's
// rows word by word, in order through memory: at a million users, 489 words per trigram of the
// needle instead of a test of each of 15 625 chunks. The rows take 32 bytes per user.
//
// Each user's text is `name\nemail` lower-cased, and users are separated by a NUL. Only a needle
// holding a NUL can match across a separator, and such a match is passed over, so every match found
// lies within one user's text. Needles with a NUL were once answered by testing every user instead:
// any client could send one with every request, and at a million users each held the event loop for
// 0.6 s (bench/RESULTS.md, The million-user seed).
//
// Chunks follow the users' creation order, the order answers list them in. A new user is appended
// to the last chunk; a changed name or e-mail redoes the user's chunk alone: its text is dropped and
// its trigram bits cleared and noted again. Rebuilding the whole index instead took over a second at
// a million users, so a client alternating renames and searches held the event loop that long each
// time.
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
}

/** Chunks per run: one bit of a word each. */
const RUN = 32;

/** The bit of the trigram that starts at `at` (three UTF-16 code units, hashed to TRIGRAM_BITS). */
const trigramAt = (text: string, at: number) =>
  Math.imul(
    text.charCodeAt(at) ^ (text.charCodeAt(at + 1) << 7) ^ (text.charCodeAt(at + 2) << 14),
    0x9e3779b1,
  ) >>>
  (32 - TRIGRAM_BITS);

/**
 * The trigram rows: `words[bit * runs + run]`, bit c of which is set when chunk 32 × run + c holds
 * a trigram hashed to `bit`. Room for `runs` runs per row; grown by doubling.
 */
class TrigramRows {
  runs = 1;
  words = new Int32Array(1 << TRIGRAM_BITS);
  /** How many chunks hold each bit: a search ANDs the rarest rows first, so most runs end early. */
  readonly chunksWith = new Int32Array(1 << TRIGRAM_BITS);

  note(chunk: number, text: string): void {
    const run = Math.floor(chunk / RUN);
    if (run >= this.runs) this.grow(this.runs * 2);
    const mask = 1 << (chunk % RUN);
    for (let at = 0; at + 2 < text.length; at++) {
      const bit = trigramAt(text, at);
      const word = bit * this.runs + run;
      if (((this.words[word] as number) & mask) === 0) {
        this.words[word] = (this.words[word] as number) | mask;
        this.chunksWith[bit] = (this.chunksWith[bit] as number) + 1;
      }
    }
  }

  /** Clears every bit of `chunk`, so that its text can be noted again. */
  forget(chunk: number): void {
    const run = Math.floor(chunk / RUN);
    if (run >= this.runs) return;
    const mask = 1 << (chunk % RUN);
    for (let bit = 0, word = run; bit < 1 << TRIGRAM_BITS; bit++, word += this.runs) {
      if (((this.words[word] as number) & mask) !== 0) {
        this.words[word] = (this.words[word] as number) & ~mask;
        this.chunksWith[bit] = (this.chunksWith[bit] as number) - 1;
      }
    }
  }

  /** Into `out`, per run, the chunks that hold every bit of `needed` (all chunks when it is empty). */
  and(needed: number[], runs: number, out: Int32Array): void {
    const words = this.words;
    const rows = needed
      .sort((a, b) => (this.chunksWith[a] as number) - (this.chunksWith[b] as number))
      .map((bit) => bit * this.runs);
    for (let r = 0; r < runs; r++) {
      let x = -1;
      for (let k = 0; k < rows.length && x !== 0; k++) x &= words[(rows[k] as number) + r] as number;
      out[r] = x;
    }
  }

  private grow(runs: number): void {
    const grown = new Int32Array((1 << TRIGRAM_BITS) * runs);
    for (let bit = 0; bit < 1 << TRIGRAM_BITS; bit++)
      grown.set(this.words.subarray(bit * this.runs, (bit + 1) * this.runs), bit * runs);
    this.words = grown;
    this.runs = runs;
  }
}

export const userText = (user: User) => `${user.name}\n${user.email}`.toLowerCase();

export class UserSearchIndex {
  private chunks: Chunk[] = [];
  private trigrams = new TrigramRows();
  /** Scratch for a search's candidate chunks, a word per run. */
  private candidates = new Int32Array(1);
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
      last = { ids: [], text: null, starts: [] };
      this.chunks.push(last);
    }
    last.ids.push(user.id);
    last.text = null;
    const chunk = this.chunks.length - 1;
    this.trigrams.note(chunk, userText(user));
  }

  /** User `id`'s name or e-mail changed: its chunk's text and bits are redone. */
  changed(id: number): void {
    if (this.stale) return;
    const at = this.chunkOf(id);
    if (at < 0) {
      this.stale = true;
      return;
    }
    const chunk = this.chunks[at] as Chunk;
    chunk.text = null;
    this.trigrams.forget(at);
    for (const each of chunk.ids) this.trigrams.note(at, userText(this.userOf(each)));
  }

  /** The chunk holding user `id`: by bisection, since ids grow with creation, else by looking at each. */
  private chunkOf(id: number): number {
    let low = 0;
    let high = this.chunks.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (((this.chunks[mid] as Chunk).ids[0] as number) <= id) low = mid;
      else high = mid - 1;
    }
    if (this.chunks[low]?.ids.includes(id)) return low;
    return this.chunks.findIndex((chunk) => chunk.ids.includes(id));
  }

  /** The first `limit` users whose text contains `needle` (lower-cased), in creation order, and how many do. */
  search(needle: string, limit: number): { found: User[]; total: number } {
    if (this.stale) this.rebuild();
    const found: User[] = [];
    let total = 0;
    const needed: number[] = [];
    for (let at = 0; at + 2 < needle.length; at++) {
      const bit = trigramAt(needle, at);
      if (!needed.includes(bit)) needed.push(bit);
    }
    const runs = Math.ceil(this.chunks.length / RUN);
    if (this.candidates.length < runs) this.candidates = new Int32Array(this.trigrams.runs);
    this.trigrams.and(needed, runs, this.candidates);
    for (let r = 0; r < runs; r++) {
      let candidates = this.candidates[r] as number;
      // The run's chunks in order, lowest bit first.
      while (candidates !== 0) {
        const low = candidates & -candidates;
        candidates ^= low;
        const chunk = this.chunks[r * RUN + 31 - Math.clz32(low)];
        if (!chunk) break;
        total += this.searchChunk(chunk, needle, limit, found);
      }
    }
    return { found, total };
  }

  /** Adds the chunk's matching users to `found` (up to `limit` in all) and answers how many match. */
  private searchChunk(chunk: Chunk, needle: string, limit: number, found: User[]): number {
    const text = this.textOf(chunk);
    const { starts } = chunk;
    let total = 0;
    let at = text.indexOf(needle);
    while (at >= 0) {
      const i = lastStartAtOrBefore(starts, at);
      const next = starts[i + 1];
      // User i's text ends at its separator, just before the next user's text.
      if (at + needle.length > (next ?? text.length) - 1) {
        at = text.indexOf(needle, at + 1);
        continue;
      }
      total++;
      if (found.length < limit) found.push(this.userOf(chunk.ids[i] as number));
      // The next match must start in a later user: one count per user.
      if (next === undefined) break;
      at = text.indexOf(needle, next);
    }
    return total;
  }

  private rebuild(): void {
    this.rebuilds++;
    this.chunks = [];
    this.trigrams = new TrigramRows();
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
