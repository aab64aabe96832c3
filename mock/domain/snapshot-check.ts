// What a snapshot must hold before it replaces the state (docs/mock.md, Durable state). A snapshot is
// written by `GET /__admin/snapshot` or the state file, but may have been edited or come from anywhere:
// one whose id counters are behind its records would hand out ids already taken, and every later
// create failed; two users with one e-mail or API ID make lookups answer either. The whole snapshot
// is checked before anything is loaded, and the first problem is named.
import type { COLLECTIONS, CollectionName } from './model.ts';
import { INT32_MAX } from './tenant-state.ts';

/**
 * How each collection's ids are made: `seq`, the counter of TenantState.nextId that hands them out
 * (with `prefix` for an id like `wh_3`); without one, ids only have to be unique (MCP key ids are
 * random, and a client may name an upload session itself). Listed for every collection, so a new one
 * must say which.
 */
const IDS: Record<CollectionName, { seq?: string; prefix?: string }> = {
  users: { seq: 'user' },
  groups: { seq: 'group' },
  attributes: { seq: 'attribute' },
  courses: { seq: 'course' },
  chains: { seq: 'chain' },
  assignments: { seq: 'assignment' },
  certificates: { seq: 'certificate' },
  audit: { seq: 'audit' },
  events: { seq: 'event' },
  mcpKeys: {},
  receivers: { seq: 'receiver', prefix: 'wh_' },
  deliveries: { seq: 'delivery', prefix: 'dlv_' },
  uploads: {},
  jobs: { seq: 'job', prefix: 'job_' },
} satisfies Record<keyof typeof COLLECTIONS, unknown>;

type Loose = Record<string, unknown>;
const records = (list: unknown): Loose[] =>
  Array.isArray(list) ? list.filter((r): r is Loose => typeof r === 'object' && r !== null) : [];

/** Ids that must be unique and, with a counter, not past it. */
class Ids {
  private readonly seen = new Set<unknown>();
  constructor(
    private readonly where: string,
    private readonly seq: Record<string, unknown>,
    private readonly counter?: string,
    private readonly prefix = '',
  ) {}

  /** The problem with `id`, or null. */
  add(id: unknown): string | null {
    if (this.seen.has(id)) return `${this.where}: id ${JSON.stringify(id)} is used twice`;
    this.seen.add(id);
    if (!this.counter) return typeof id === 'string' || typeof id === 'number' ? null : this.noId(id);
    let n: number;
    if (this.prefix) {
      if (typeof id !== 'string') return this.noId(id);
      // An id of another form can never be handed out by the counter, so it cannot collide.
      const match = new RegExp(`^${this.prefix}([0-9]{1,15})$`).exec(id);
      if (!match) return null;
      n = Number(match[1]);
    } else {
      if (typeof id !== 'number' || !Number.isInteger(id)) return this.noId(id);
      n = id;
    }
    const last = this.seq[this.counter] ?? 0;
    if (typeof last !== 'number' || !Number.isInteger(last) || last < 0)
      return `the counter seq.${this.counter} is ${JSON.stringify(last)}, not a whole number`;

    if (n > last)
      return `${this.where}: id ${JSON.stringify(id)} is past the counter seq.${this.counter} (${last}); the next ids handed out would repeat it`;
    return null;
  }

  private noId(id: unknown): string {
    return `${this.where}: a record's id is ${JSON.stringify(id) ?? 'missing'}, not ${this.prefix ? `a string` : 'a whole number'}`;
  }
}

/** Values that must be unique (a user's e-mail, ignoring case; an API ID). */
function unique(where: string, what: string, values: Iterable<unknown>): string | null {
  const seen = new Set<unknown>();
  for (const value of values) {
    if (seen.has(value)) return `${where}: the ${what} ${JSON.stringify(value)} is used twice`;
    seen.add(value);
  }
  return null;
}

/** The first problem of one tenant's records, or null. */
function tenantProblem(id: string, tenant: Loose): string | null {
  const seq = (typeof tenant.seq === 'object' && tenant.seq !== null ? tenant.seq : {}) as Loose;
  const at = `tenant ${id}`;
  for (const [kind, last] of Object.entries(seq))
    if (typeof last !== 'number' || !Number.isInteger(last) || last < 0 || last > INT32_MAX)
      return `${at}: the counter seq.${kind} is ${JSON.stringify(last)}, not a whole number from 0 to ${INT32_MAX} (ids are 32-bit integers)`;
  for (const [name, how] of Object.entries(IDS) as [CollectionName, (typeof IDS)[CollectionName]][]) {
    const ids = new Ids(`${at}: ${name}`, seq, how.seq, how.prefix);
    for (const record of records(tenant[name])) {
      const problem = ids.add(record.id);
      if (problem) return problem;
    }
  }
  const users = records(tenant.users);
  const problem =
    unique(
      `${at}: users`,
      'e-mail',
      users.map((u) => String(u.email).toLowerCase()),
    )?.replace(/ is used twice$/, ' is used twice (ignoring case)') ??
    unique(
      `${at}: users`,
      'apiId',
      users.map((u) => u.apiId),
    );
  if (problem) return problem;

  // Ids inside records, from counters of their own.
  const options = new Ids(`${at}: attribute options`, seq, 'attributeOption');
  const attributes = records(tenant.attributes);
  for (const scope of ['user', 'group']) {
    const ofScope = attributes.filter((a) => a.scope === scope);
    const problem =
      unique(
        `${at}: ${scope} attributes`,
        'apiId',
        ofScope.map((a) => a.apiId),
      ) ??
      (scope === 'group'
        ? unique(
            `${at}: group attributes`,
            'name',
            ofScope.map((a) => a.name),
          )
        : null);
    if (problem) return problem;
  }
  for (const attribute of attributes)
    for (const option of records(attribute.extraData)) {
      const problem = options.add(option.id);
      if (problem) return problem;
    }
  for (const course of records(tenant.courses)) {
    const elements = new Ids(`${at}: course ${course.id}: elements`, seq, 'element');
    for (const element of records((course.structure as Loose | undefined)?.elements)) {
      const problem = elements.add(element.id);
      if (problem) return problem;
    }
  }
  const files = new Ids(`${at}: uploaded files`, seq, 'file', 'file_');
  for (const session of records(tenant.uploads))
    for (const file of records(session.files)) {
      const problem = files.add(file.id);
      if (problem) return problem;
    }
  return null;
}

/** The first problem of a snapshot's invariants, as a phrase for an error message, or null. */
export function snapshotProblem(snapshot: { tenants?: unknown }): string | null {
  const tenants = Object.entries((snapshot.tenants ?? {}) as Record<string, unknown>);
  const problem =
    unique(
      'tenants',
      'id',
      tenants.map(([, t]) => (t as Loose | null)?.id),
    ) ??
    unique(
      'tenants',
      'site API key',
      tenants.map(([, t]) => (t as Loose | null)?.siteApiKey),
    );
  if (problem) return problem;
  for (const [key, tenant] of tenants) {
    if (typeof tenant !== 'object' || tenant === null) continue;
    const problem = tenantProblem(String((tenant as Loose).id ?? key), tenant as Loose);
    if (problem) return problem;
  }
  return null;
}
