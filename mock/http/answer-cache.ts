// The last answers of GET operations, by caller, state version, virtual second and URL (the
// contract router builds the key; docs/architecture.md, "A request through the mock", step 6).
// Bounded twice, oldest out first: by count, and by the characters of the bodies kept, so that a
// few large answers (a 100-user page, a statistics body) cannot hold memory that a long mixed load
// would see grow. Entries of an older state version are never served again; they leave as newer
// answers come in.

export interface Answer {
  type: string;
  /** Kept as bytes, so that serving it again converts nothing; its size counts as its length. */
  body: string | Buffer;
}

export class AnswerCache {
  private readonly answers = new Map<string, Answer>();
  private chars = 0;

  constructor(
    readonly maxEntries = 1000,
    readonly maxChars = 8 * 2 ** 20,
  ) {}

  get(key: string): Answer | undefined {
    return this.answers.get(key);
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
