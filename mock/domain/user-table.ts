// A tenant's users, read like a Map by id (`size`, `get`, `has`, `keys`, `values`). The scale
// seed's users follow from their number alone (seed/scale.ts), so they are not kept as objects at
// all: `made` answers user `id` (1 ≤ id ≤ count) as a fresh object on each read. At a million users,
// a million objects (with their apiId and e-mail strings) took 2 s to build before the first answer
// and most of every major collection's marking after it; a made user costs nothing until it is read.
//
// A user stops being made once it is written: `edit` answers the user as a kept object (a copy the
// first time), and the write goes to that. Made users are frozen, as is their group list and
// attribute set, so a write that forgets `edit` fails loudly instead of changing a copy that is then
// dropped. Users that were never made (the demo seed's, those created through the API, those read
// from a snapshot) are kept as objects from the start.
//
// A made user is a new object on each read: code compares users by `id`, never by identity.
import type { User } from './model.ts';

/** Users 1…count of a seed, each made from its id alone. */
export interface MadeUsers {
  count: number;
  /** User `id`, frozen (with its `groupIds` and `attributes`): not banned, with no attribute values. */
  make(id: number): User;
  /** The id of the made user whose apiId this may be; the caller checks the user's actual apiId. */
  idOfApiId(apiId: string): number | undefined;
  /** The same for a lower-cased e-mail. */
  idOfEmail(email: string): number | undefined;
}

export class UserTable {
  private readonly kept = new Map<number, User>();
  /** Made users that were written, and are therefore in `kept`. */
  private readonly edited: Uint8Array;
  private readonly made: MadeUsers | null;

  constructor(made: MadeUsers | null = null) {
    this.made = made;
    this.edited = new Uint8Array(made ? made.count + 1 : 0);
  }

  private isMade(id: number): boolean {
    return this.made !== null && Number.isInteger(id) && id >= 1 && id <= this.made.count;
  }

  get size(): number {
    return (this.made?.count ?? 0) + this.kept.size - this.editedCount;
  }
  private editedCount = 0;

  get(id: number): User | undefined {
    if (this.isMade(id) && !this.edited[id]) return (this.made as MadeUsers).make(id);
    return this.kept.get(id);
  }

  has(id: number): boolean {
    return this.isMade(id) || this.kept.has(id);
  }

  /** Every user in creation order (by id): the made ones, then the others in the order they were added. */
  *values(): IterableIterator<User> {
    const made = this.made;
    if (made) {
      for (let id = 1; id <= made.count; id++)
        yield this.edited[id] ? (this.kept.get(id) as User) : made.make(id);
    }
    for (const user of this.kept.values()) if (!this.isMade(user.id)) yield user;
  }

  *keys(): IterableIterator<number> {
    for (let id = 1; id <= (this.made?.count ?? 0); id++) yield id;
    for (const id of this.kept.keys()) if (!this.isMade(id)) yield id;
  }

  /** The users at `offset`… of `values()`, at most `limit`: the made ones skipped are not made. */
  slice(offset: number, limit: number): User[] {
    const out: User[] = [];
    const made = this.made?.count ?? 0;
    for (let id = offset + 1; id <= made && out.length < limit; id++) out.push(this.get(id) as User);
    let skip = Math.max(0, offset - made);
    for (const user of this.kept.values()) {
      if (out.length >= limit) break;
      if (this.isMade(user.id)) continue;
      if (skip > 0) skip--;
      else out.push(user);
    }
    return out;
  }

  /**
   * The users kept as objects: the created, the loaded and the written ones. A made user is not
   * banned and holds no attribute values until it is written, so whatever looks for those reads
   * these alone, not a million made users.
   */
  keptUsers(): IterableIterator<User> {
    return this.kept.values();
  }

  /** Adds a user that is not made; its id must be new. */
  add(user: User): void {
    if (this.has(user.id)) throw new Error(`user id ${user.id} is taken`);
    this.kept.set(user.id, user);
  }

  /** The user with this id as an object that writes may change and that every later read answers. */
  edit(id: number): User | undefined {
    if (!this.isMade(id) || this.edited[id]) return this.kept.get(id);
    const made = (this.made as MadeUsers).make(id);
    const user = { ...made, groupIds: [...made.groupIds], attributes: { ...made.attributes } };
    this.kept.set(id, user);
    this.edited[id] = 1;
    this.editedCount++;
    return user;
  }

  /** The id of the made user with this apiId or lower-cased e-mail, if one still has it. */
  madeIdOf(key: 'apiId' | 'email', value: string): number | undefined {
    if (!this.made) return undefined;
    const id = key === 'apiId' ? this.made.idOfApiId(value) : this.made.idOfEmail(value);
    if (id === undefined || !this.isMade(id)) return undefined;
    const user = this.get(id) as User;
    return (key === 'apiId' ? user.apiId : user.email.toLowerCase()) === value ? id : undefined;
  }
}
