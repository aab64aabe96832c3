// Per-user aggregates of the assignments (assigned, started, finished, sum of results), kept in
// typed arrays by the order users were added rather than as an object and a map entry per user: a
// million users take about 25 MB here. `get` answers a copy; the counts change only through the
// `count…` methods, which TenantState calls on each write.
import { IntById } from './int-by-id.ts';

export interface UserStats {
  assigned: number;
  started: number;
  finished: number;
  resultSum: number;
}

export class UserStatsTable {
  private slotOf = new IntById();
  private count = 0;
  private ids = new Float64Array(16);
  private assigned = new Int32Array(16);
  private started = new Int32Array(16);
  private finished = new Int32Array(16);
  private resultSum = new Float64Array(16);

  get size(): number {
    return this.count;
  }

  /** Starts a user's counts at zero (a user already known keeps theirs). */
  add(userId: number): void {
    if (this.slot(userId) >= 0) return;
    if (this.count === this.ids.length) this.grow(this.count * 2);
    const slot = this.count++;
    this.ids[slot] = userId;
    this.slotOf.set(userId, slot + 1);
  }

  /** Room for `n` users at once (a seed that knows its size). */
  reserve(n: number): void {
    if (n > this.ids.length) this.grow(n);
    this.slotOf.reserve(n + 1);
  }

  has(userId: number): boolean {
    return this.slot(userId) >= 0;
  }

  get(userId: number): UserStats | undefined {
    const s = this.slot(userId);
    if (s < 0) return undefined;
    return {
      assigned: this.assigned[s] as number,
      started: this.started[s] as number,
      finished: this.finished[s] as number,
      resultSum: this.resultSum[s] as number,
    };
  }

  /** Each returns false when the user is unknown (their counts are not kept). */
  countAssigned(userId: number): boolean {
    const s = this.slot(userId);
    if (s >= 0) (this.assigned[s] as number)++;
    return s >= 0;
  }

  countStart(userId: number): boolean {
    const s = this.slot(userId);
    if (s >= 0) (this.started[s] as number)++;
    return s >= 0;
  }

  countFinish(userId: number, result: number): boolean {
    const s = this.slot(userId);
    if (s < 0) return false;
    (this.finished[s] as number)++;
    (this.resultSum[s] as number) += result;
    return true;
  }

  /**
   * Users with at least one finished course, ranked by completions, then exact average result,
   * then id (seed 001, /statistics `leaders`).
   */
  ranked(): number[] {
    const slots: number[] = [];
    for (let s = 0; s < this.count; s++) if ((this.finished[s] as number) > 0) slots.push(s);
    const average = (s: number) => (this.resultSum[s] as number) / (this.finished[s] as number);
    slots.sort(
      (a, b) =>
        (this.finished[b] as number) - (this.finished[a] as number) ||
        average(b) - average(a) ||
        (this.ids[a] as number) - (this.ids[b] as number),
    );
    return slots.map((s) => this.ids[s] as number);
  }

  /**
   * Users none of whose assignments was ever started (`'started'`) or finished (`'finished'`), in
   * the order they were added. Counts only grow and users are only appended, so a user leaves these
   * lists for good: each keeps where its first member may be, and a read walks on from there instead
   * of a set of a million ids being kept up to date on every write.
   */
  without(count: 'started' | 'finished'): Iterable<number> {
    return { [Symbol.iterator]: () => this.walkWithout(count) };
  }

  private readonly firstWithout = { started: 0, finished: 0 };

  private *walkWithout(count: 'started' | 'finished'): Generator<number> {
    const counts = this[count];
    let first = this.firstWithout[count];
    while (first < this.count && (counts[first] as number) > 0) first++;
    this.firstWithout[count] = first;
    for (let s = first; s < this.count; s++) if ((counts[s] as number) === 0) yield this.ids[s] as number;
  }

  private slot(userId: number): number {
    return this.slotOf.get(userId) - 1;
  }

  private grow(capacity: number): void {
    const ints = (a: Int32Array) => {
      const grown = new Int32Array(capacity);
      grown.set(a);
      return grown;
    };
    const ids = new Float64Array(capacity);
    ids.set(this.ids);
    this.ids = ids;
    this.assigned = ints(this.assigned);
    this.started = ints(this.started);
    this.finished = ints(this.finished);
    const sums = new Float64Array(capacity);
    sums.set(this.resultSum);
    this.resultSum = sums;
  }
}
