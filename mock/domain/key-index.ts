// A map from a string key (a user's apiId, a lower-cased email) to a record's id, kept as an
// open-addressing hash table in two typed arrays instead of a Map of strings. At the million-user
// scale seed, two Maps of a million string keys were the largest item of the start (building them)
// and a large part of every major GC (marking them); this table holds 8 bytes a slot and nothing the
// GC walks. The key itself is not stored: a hit is confirmed by recomputing the key from the record
// (`keyOf`), so the table cannot disagree with the records it indexes as long as every change of a
// key goes through `delete` (old key) then `set` (new key), as tenant-state.ts does.

const EMPTY = 0;
const DELETED = -1;
const MAX_ID = 0x7fffffff;

/** FNV-1a over the UTF-16 code units, as a non-zero int32 (0 marks an empty slot's hash too). */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h | 1;
}

export class KeyIndex {
  private hashes: Int32Array;
  private ids: Int32Array;
  /** Slots holding an id or a tombstone: what decides when the table grows. */
  private used = 0;
  /** Ids that do not fit a positive int32 (a hand-made state file may have any number). */
  private readonly others = new Map<string, number>();

  /** `keyOf(id)` answers the current key of the record with that id, or undefined if there is none. */
  constructor(
    private readonly keyOf: (id: number) => string | undefined,
    expected = 0,
  ) {
    const size = capacityFor(expected);
    this.hashes = new Int32Array(size);
    this.ids = new Int32Array(size);
  }

  /** Makes room for `count` keys at once, so a seed's load does not grow the table step by step. */
  reserve(count: number): void {
    if (capacityFor(count) > this.ids.length) this.resize(capacityFor(count));
  }

  get(key: string): number | undefined {
    const other = this.others.get(key);
    if (other !== undefined) return other;
    const slot = this.find(key, hashOf(key));
    return slot < 0 ? undefined : this.ids[slot];
  }

  /** Points `key` at `id`, replacing the entry of a record that has the same key (Map semantics). */
  set(key: string, id: number): void {
    if (!Number.isInteger(id) || id <= 0 || id > MAX_ID) {
      this.delete(key);
      this.others.set(key, id);
      return;
    }
    this.others.delete(key);
    const hash = hashOf(key);
    const existing = this.find(key, hash);
    if (existing >= 0) {
      this.ids[existing] = id;
      return;
    }
    if ((this.used + 1) * 2 > this.ids.length) this.resize(this.ids.length * 2);
    this.place(hash, id);
  }

  delete(key: string): void {
    this.others.delete(key);
    const slot = this.find(key, hashOf(key));
    if (slot >= 0) this.ids[slot] = DELETED;
  }

  /** The slot whose id's current key is `key`, or -1. */
  private find(key: string, hash: number): number {
    const mask = this.ids.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.ids[slot] as number;
      if (id === EMPTY) return -1;
      if (id !== DELETED && this.hashes[slot] === hash && this.keyOf(id) === key) return slot;
    }
  }

  private place(hash: number, id: number): void {
    const mask = this.ids.length - 1;
    let slot = hash & mask;
    while (this.ids[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.hashes[slot] = hash;
    this.ids[slot] = id;
    this.used++;
  }

  /** Rebuilds into `size` slots from the stored hashes (no key is recomputed), dropping tombstones. */
  private resize(size: number): void {
    const { hashes, ids } = this;
    this.hashes = new Int32Array(size);
    this.ids = new Int32Array(size);
    this.used = 0;
    for (let slot = 0; slot < ids.length; slot++) {
      const id = ids[slot] as number;
      if (id !== EMPTY && id !== DELETED) this.place(hashes[slot] as number, id);
    }
  }
}

/** A power of two with at least twice `count` slots (load factor ≤ ½ keeps probes short). */
function capacityFor(count: number): number {
  let size = 16;
  while (size < count * 2) size *= 2;
  return size;
}
