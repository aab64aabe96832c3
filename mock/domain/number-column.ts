// One field of a columnar table (assignment-table.ts): a number or null per row in 4 bytes. The
// fields kept this way (Unix seconds, progress, results) are whole numbers that fit 32 bits; any
// other value (a fraction, a time past 2038 or before 1902) is kept exactly in a side map, so the
// column answers what was written, whatever it was.
const NULL = -0x80000000;
const ELSEWHERE = -0x7fffffff;

export class NumberColumn {
  private data: Int32Array;
  private readonly elsewhere = new Map<number, number>();

  constructor(capacity: number) {
    this.data = new Int32Array(capacity);
  }

  get(row: number): number | null {
    const v = this.data[row] as number;
    if (v === NULL) return null;
    if (v === ELSEWHERE) return this.elsewhere.get(row) as number;
    return v;
  }

  set(row: number, value: number | null | undefined): void {
    if (this.elsewhere.size) this.elsewhere.delete(row);
    if (value === null || value === undefined) this.data[row] = NULL;
    else if ((value | 0) === value && value > ELSEWHERE) this.data[row] = value;
    else {
      this.data[row] = ELSEWHERE;
      this.elsewhere.set(row, value);
    }
  }

  grow(capacity: number): void {
    const grown = new Int32Array(capacity);
    grown.set(this.data);
    this.data = grown;
  }
}
