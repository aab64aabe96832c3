// The text a user search looks in (seed 000, find_user: a case-insensitive substring of the name or
// the e-mail), kept for the whole tenant as a few long strings rather than one string per user: a
// search is then a run of `indexOf` over each chunk, which jumps from match to match instead of
// testing a million users one by one, and a million users' text takes one string per 4 096 users
// instead of a million strings and map entries.
//
// Each user's text is `name\nemail` lower-cased, and users are separated by a NUL, which no needle
// here contains (`matches` refuses one), so a match never spans two users. Chunks follow the users'
// creation order, the order answers list them in. A new user is appended to the last chunk; a
// changed name or e-mail marks the whole index for rebuilding on the next search (rare writes, and
// a rebuild is one pass over the users).
import type { User } from './model.ts';

const CHUNK = 4096;
const SEPARATOR = '\u0000';

interface Chunk {
  users: User[];
  /** The chunk's text, null until the next search needs it. */
  text: string | null;
  /** Where each user's text starts in `text`. */
  starts: number[];
}

export const userText = (user: User) => `${user.name}\n${user.email}`.toLowerCase();

export class UserSearchIndex {
  private chunks: Chunk[] = [];
  private stale = true;
  /** How many times the index was built from every user; a guard asserts searches do not rebuild it. */
  rebuilds = 0;

  constructor(private readonly allUsers: () => Iterable<User>) {}

  added(user: User): void {
    if (this.stale) return;
    let last = this.chunks.at(-1);
    if (!last || last.users.length >= CHUNK) {
      last = { users: [], text: null, starts: [] };
      this.chunks.push(last);
    }
    last.users.push(user);
    last.text = null;
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
    for (const chunk of this.chunks) {
      const text = this.textOf(chunk);
      let at = text.indexOf(needle);
      while (at >= 0) {
        const i = lastStartAtOrBefore(chunk.starts, at);
        total++;
        if (found.length < limit) found.push(chunk.users[i] as User);
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
      for (const user of chunk.users) {
        chunk.starts.push(text.length);
        text += userText(user) + SEPARATOR;
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
