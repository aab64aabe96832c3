// The last answers of GET operations, by caller, state version, virtual second and URL (the
// contract router builds the key; docs/architecture.md, "A request through the mock", step 6).
// Bounded twice, oldest out first: by count, and by the characters of the bodies kept, so that a
// few large answers (a 100-user page, a statistics body) cannot hold memory that a long mixed load
// would see grow. Every answer kept is of one epoch (the state version and the virtual second): an
// older epoch's answers are never served again, so a new epoch starts the cache over. Left to leave
// as newer answers came in, they held the whole budget under a mixed read/write load (8 MB of
// statistics bodies of past versions, bench/RESULTS.md, Memory under mixed load).
//
// An answer is kept the second time its key is asked for, not the first: a read asked for once (a
// search whose every query is new, a page after a write) would only push out answers that are asked
// for again, and keeping it cost a copy of its bytes and, held past two scavenges, a promotion to the
// old generation (11 % of the CPU of a new search at a million users, bench/RESULTS.md). The keys
// asked for once are remembered in a set that starts over at four times the cache's entries.

export interface Answer {
  type: string;
  /** Kept as bytes, so that serving it again converts nothing; its size counts as its length. */
  body: string | Buffer;
}

export class AnswerCache {
  private readonly answers = new Map<string, Answer>();
  private readonly askedOnce = new Set<string>();
  private chars = 0;
  private epoch: string | undefined;

  constructor(
    readonly maxEntries = 1000,
    readonly maxChars = 8 * 2 ** 20,
  ) {}

  /** Starts the cache over when `epoch` is not the epoch of the answers kept. */
  enter(epoch: string): void {
    if (epoch === this.epoch) return;
    this.epoch = epoch;
    this.answers.clear();
    this.askedOnce.clear();
    this.chars = 0;
  }

  get(key: string): Answer | undefined {
    return this.answers.get(key);
  }

  /** Whether the answer under `key`, not found, should be kept once made: it was asked for before. */
  admits(key: string): boolean {
    if (this.askedOnce.delete(key)) return true;
    if (this.askedOnce.size >= 4 * this.maxEntries) this.askedOnce.clear();
    this.askedOnce.add(key);
    return false;
  }

  set(key: string, answer: Answer): void {
    this.drop(key);
    // An answer larger than an eighth of the budget is not kept: it would push out many others.
    if (answer.body.length > this.maxChars / 8) return;
    this.answers.set(key, answer);
    this.chars += answer.body.length;
    while (this.answers.size > this.maxEntries || this.chars > this.maxChars)
      this.drop(this.answers.keys().next().value as string);
  }

  /** Entries and characters kept, for the guards. */
  get size(): { entries: number; chars: number } {
    return { entries: this.answers.size, chars: this.chars };
  }

  private drop(key: string): void {
    const old = this.answers.get(key);
    if (!old) return;
    this.answers.delete(key);
    this.chars -= old.body.length;
  }
}
