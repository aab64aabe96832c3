// A whole number per record id, for the compact indexes of assignment-table.ts and
// user-stats-table.ts. Ids are handed out one by one from 1 (TenantState.nextId), so a typed array
// indexed by the id itself holds a million of them in 4 MB, where a Map would take about ten times
// that; an id too large for such an array (only a hand-written snapshot has one) goes to a Map.
const DENSE_LIMIT = 1 << 24;

export class IntById {
  private dense = new Int32Array(16);
  private readonly sparse = new Map<number, number>();

  /** The number kept for `id`, 0 when none was. */
  get(id: number): number {
    if (id >= 0 && id < this.dense.length && Number.isInteger(id)) return this.dense[id] as number;
    return this.sparse.get(id) ?? 0;
  }

  set(id: number, value: number): void {
    if (id >= 0 && id < DENSE_LIMIT && Number.isInteger(id)) {
      if (id >= this.dense.length) {
        const grown = new Int32Array(Math.min(DENSE_LIMIT, Math.max(id + 1, this.dense.length * 2)));
        grown.set(this.dense);
        this.dense = grown;
      }
      this.dense[id] = value;
    } else this.sparse.set(id, value);
  }

  /** Room for ids below `n` at once (a seed that knows its size), instead of growing by doubling. */
  reserve(n: number): void {
    if (n > this.dense.length && n <= DENSE_LIMIT) {
      const grown = new Int32Array(n);
      grown.set(this.dense);
      this.dense = grown;
    }
  }
}
