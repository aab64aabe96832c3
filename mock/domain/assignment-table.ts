// A tenant's assignments as columns of typed arrays, one row per assignment, in the order they were
// made. At the million-user scale (5 M assignments) one object per assignment, the map by id and a
// map per user and per course took over a gigabyte; here a row takes about 50 bytes. A record is
// materialised as a plain `Assignment` when read, and changed through `write`, which copies the
// record's fields back into its row (TenantState does it for every change, so the aggregates follow).
//
// While anyone holds a record, reading its row again answers that same object (a weak reference per
// row read, dropped when the object is collected): code that keeps an assignment and changes it
// through TenantState sees one record, as it did when records were objects. `values()`, which walks
// every row for a snapshot or a report, answers a held record where there is one and otherwise a
// copy it does not track, so a walk over millions of rows keeps none of them alive.
//
// Each user's and each course's assignments are linked lists threaded through the rows (`next…`
// columns, with the first and last row per id), so appending keeps them in creation order — the
// order every list answers in — without a map or an array per user.
import { IntById } from './int-by-id.ts';
import type { Assignment } from './model.ts';
import { NumberColumn } from './number-column.ts';

/** Rows are numbered from 0; the links and heads hold row + 1, so 0 means "none". */
interface Chain {
  first: IntById;
  last: IntById;
  next: Int32Array;
}

const chain = (capacity: number): Chain => ({
  first: new IntById(),
  last: new IntById(),
  next: new Int32Array(capacity),
});

const isInt32 = (n: unknown): n is number => typeof n === 'number' && (n | 0) === n;

export class AssignmentTable {
  private capacity: number;
  private rows = 0;
  private ids: Int32Array;
  private userIds: Int32Array;
  private courseIds: Int32Array;
  private readonly assignedAt: NumberColumn;
  private readonly startAt: NumberColumn;
  private readonly deadlineAt: NumberColumn;
  private readonly startedAt: NumberColumn;
  private readonly finishedAt: NumberColumn;
  private readonly progressValue: NumberColumn;
  private readonly resultValue: NumberColumn;
  private readonly byUser: Chain;
  private readonly byCourse: Chain;
  private readonly countByCourse = new IntById();
  /** Rows by id, only once an id arrived out of order (a hand-written snapshot); else bisection. */
  private rowById: Map<number, number> | null = null;
  /** The record each row was last read as, while something holds it. */
  private readonly held = new Map<number, WeakRef<Assignment>>();
  private readonly released = new FinalizationRegistry<number>((row) => {
    if (this.held.get(row)?.deref() === undefined) this.held.delete(row);
  });

  constructor(capacity = 16) {
    this.capacity = Math.max(16, capacity);
    this.ids = new Int32Array(this.capacity);
    this.userIds = new Int32Array(this.capacity);
    this.courseIds = new Int32Array(this.capacity);
    this.assignedAt = new NumberColumn(this.capacity);
    this.startAt = new NumberColumn(this.capacity);
    this.deadlineAt = new NumberColumn(this.capacity);
    this.startedAt = new NumberColumn(this.capacity);
    this.finishedAt = new NumberColumn(this.capacity);
    this.progressValue = new NumberColumn(this.capacity);
    this.resultValue = new NumberColumn(this.capacity);
    this.byUser = chain(this.capacity);
    this.byCourse = chain(this.capacity);
  }

  get size(): number {
    return this.rows;
  }

  /** Adds an assignment as a new row; `a` is the record its row is read as from then on. */
  add(a: Assignment): number {
    const row = this.append(a);
    this.hold(row, a);
    return row;
  }

  /**
   * Copies an assignment into a new row and answers the row; `a` is not kept (a seed fills one
   * scratch record per row). Ids and user and course ids are 32-bit integers.
   */
  append(a: Assignment): number {
    if (!isInt32(a.id) || !isInt32(a.userId) || !isInt32(a.courseId)) {
      throw new TypeError('an assignment id, user id or course id is not a 32-bit integer');
    }
    if (this.rows === this.capacity) this.grow(this.capacity * 2);
    const row = this.rows++;
    this.ids[row] = a.id;
    this.userIds[row] = a.userId;
    this.courseIds[row] = a.courseId;
    this.assignedAt.set(row, a.assignedAt);
    this.write(a, row);
    this.link(this.byUser, a.userId, row);
    this.link(this.byCourse, a.courseId, row);
    this.countByCourse.set(a.courseId, this.countByCourse.get(a.courseId) + 1);
    if (this.rowById) this.rowById.set(a.id, row);
    else if (row > 0 && a.id <= (this.ids[row - 1] as number)) this.indexByIdFrom(row);
    return row;
  }

  /** Copies the changeable fields of `a` into its row (the id, user, course and assignedAt never change). */
  write(a: Assignment, row = this.rowOf(a.id)): void {
    if (row < 0) return;
    this.startAt.set(row, a.startAt);
    this.deadlineAt.set(row, a.deadlineAt);
    this.startedAt.set(row, a.startedAt);
    this.finishedAt.set(row, a.finishedAt);
    this.progressValue.set(row, a.progressValue);
    this.resultValue.set(row, a.resultValue);
  }

  /** The record of one row: the one held, else a new plain object, held from then on. */
  record(row: number): Assignment {
    const held = this.held.get(row)?.deref();
    if (held) return held;
    const a = this.copy(row);
    this.hold(row, a);
    return a;
  }

  private hold(row: number, a: Assignment): void {
    this.held.set(row, new WeakRef(a));
    this.released.register(a, row);
  }

  private copy(row: number): Assignment {
    return {
      id: this.ids[row] as number,
      userId: this.userIds[row] as number,
      courseId: this.courseIds[row] as number,
      assignedAt: this.assignedAt.get(row) as number,
      startAt: this.startAt.get(row),
      deadlineAt: this.deadlineAt.get(row),
      startedAt: this.startedAt.get(row),
      finishedAt: this.finishedAt.get(row),
      progressValue: this.progressValue.get(row) as number,
      resultValue: this.resultValue.get(row),
    };
  }

  get(id: number): Assignment | undefined {
    const row = this.rowOf(id);
    return row < 0 ? undefined : this.record(row);
  }

  has(id: number): boolean {
    return this.rowOf(id) >= 0;
  }

  /** Every assignment, in creation order, materialised one at a time. */
  *values(): IterableIterator<Assignment> {
    for (let row = 0; row < this.rows; row++) yield this.held.get(row)?.deref() ?? this.copy(row);
  }

  /** The assignments at rows `offset`…, at most `limit`, in creation order; no other row is read. */
  slice(offset: number, limit: number): Assignment[] {
    const out: Assignment[] = [];
    for (let row = offset; row < this.rows && out.length < limit; row++) out.push(this.record(row));
    return out;
  }

  /**
   * Every row's fields, in creation order, read into one object that is filled again for each row:
   * a report over every assignment makes no record (`values()` at 5 M rows took seconds). `visit`
   * must not keep the object.
   */
  forEachRow(visit: (fields: Readonly<Assignment>) => void): void {
    if (this.rows === 0) return;
    const fields = this.copy(0);
    for (let row = 0; row < this.rows; row++) {
      fields.id = this.ids[row] as number;
      fields.userId = this.userIds[row] as number;
      fields.courseId = this.courseIds[row] as number;
      fields.assignedAt = this.assignedAt.get(row) as number;
      fields.startAt = this.startAt.get(row);
      fields.deadlineAt = this.deadlineAt.get(row);
      fields.startedAt = this.startedAt.get(row);
      fields.finishedAt = this.finishedAt.get(row);
      fields.progressValue = this.progressValue.get(row) as number;
      fields.resultValue = this.resultValue.get(row);
      visit(fields);
    }
  }

  /** The assignment of one course to one user, found along the user's chain. */
  ofUserAndCourse(userId: number, courseId: number): Assignment | undefined {
    for (let row = this.byUser.first.get(userId) - 1; row >= 0; row = (this.byUser.next[row] as number) - 1)
      if (this.courseIds[row] === courseId) return this.record(row);
    return undefined;
  }

  /** With `courses`, only the assignments to these courses: the others are passed over unmade. */
  ofUser(userId: number, courses?: ReadonlySet<number>): Assignment[] {
    if (!courses) return this.along(this.byUser, userId);
    const out: Assignment[] = [];
    for (let row = this.byUser.first.get(userId) - 1; row >= 0; row = (this.byUser.next[row] as number) - 1)
      if (courses.has(this.courseIds[row] as number)) out.push(this.record(row));
    return out;
  }

  ofCourse(courseId: number): Assignment[] {
    return this.along(this.byCourse, courseId);
  }

  countOfCourse(courseId: number): number {
    return this.countByCourse.get(courseId);
  }

  /** The fields the aggregates of TenantState count, read from the row without making a record. */
  userOf(row: number): number {
    return this.userIds[row] as number;
  }
  courseOf(row: number): number {
    return this.courseIds[row] as number;
  }
  isStarted(row: number): boolean {
    return this.startedAt.get(row) !== null;
  }
  resultIfFinished(row: number): number | null {
    return this.finishedAt.get(row) === null ? null : (this.resultValue.get(row) ?? 0);
  }

  private along(c: Chain, id: number): Assignment[] {
    const out: Assignment[] = [];
    for (let row = c.first.get(id) - 1; row >= 0; row = (c.next[row] as number) - 1)
      out.push(this.record(row));
    return out;
  }

  private link(c: Chain, id: number, row: number): void {
    const last = c.last.get(id);
    if (last) c.next[last - 1] = row + 1;
    else c.first.set(id, row + 1);
    c.last.set(id, row + 1);
  }

  /** The row of an id: ids are made in increasing order, so bisection finds it, unless a snapshot said otherwise. */
  private rowOf(id: number): number {
    if (this.rowById) return this.rowById.get(id) ?? -1;
    let low = 0;
    let high = this.rows - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = this.ids[mid] as number;
      if (at === id) return mid;
      if (at < id) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  private indexByIdFrom(row: number): void {
    this.rowById = new Map();
    for (let r = 0; r <= row; r++) this.rowById.set(this.ids[r] as number, r);
  }

  private grow(capacity: number): void {
    const copy = (a: Int32Array) => {
      const grown = new Int32Array(capacity);
      grown.set(a);
      return grown;
    };
    this.ids = copy(this.ids);
    this.userIds = copy(this.userIds);
    this.courseIds = copy(this.courseIds);
    this.byUser.next = copy(this.byUser.next);
    this.byCourse.next = copy(this.byCourse.next);
    for (const column of [
      this.assignedAt,
      this.startAt,
      this.deadlineAt,
      this.startedAt,
      this.finishedAt,
      this.progressValue,
      this.resultValue,
    ])
      column.grow(capacity);
    this.capacity = capacity;
  }
}
