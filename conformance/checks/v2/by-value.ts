// Reading v2's answers by value (seed 000 states the CONTENT of the read tools' answers, not their
// field names: "result payload fields of read tools: not shown"): the scalars of an answer with
// their paths, a time in whatever form (Unix seconds, milliseconds or an ISO date), a text anywhere
// in it, the entries of a list however it is wrapped; and the run's fixtures found in v2's answers
// by their values. What the v2 data checks (./read-content.ts, ./write-effects.ts) judge with.
import { type Context, evidenceOf } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Departure, Incomplete } from '../../outcomes.ts';
import { keyHeaders, type V1Course } from '../common/discover.ts';
import { DAY } from '../common/fixtures.ts';
import { judge, mustPass } from '../common/judge.ts';

const TWENTY_YEARS = 20 * 365.25 * DAY;

type Leaf = { path: string[]; value: unknown };

/** Every scalar of a JSON value (null included) with its path. */
export function leaves(v: unknown, path: string[] = []): Leaf[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, [...path, String(i)]));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leaves(x, [...path, k]));
  return [{ path, value: v }];
}

/** Every object inside a JSON value, itself included. */
function objects(v: unknown): Record<string, unknown>[] {
  if (Array.isArray(v)) return v.flatMap(objects);
  if (v && typeof v === 'object') return [v as Record<string, unknown>, ...Object.values(v).flatMap(objects)];
  return [];
}

export const valueAt = (v: unknown, path: string[]) =>
  path.reduce<unknown>(
    (n, k) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[k] : undefined),
    v,
  );

export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The deployment's clock when it answered: its Date header, else this machine's. */
export function clockOf(e: Exchange): number {
  const ms = Date.parse(e.headers.get('date') ?? '');
  return Math.floor((Number.isNaN(ms) ? Date.now() : ms) / 1000);
}

/**
 * A value as a point in time, in Unix seconds: a number of seconds or of milliseconds within 20
 * years of the deployment's clock, or an ISO date (`YYYY-MM-DD…`). Seed 000 does not say how v2
 * writes times (the kit chose seconds), so any of these carries a date.
 */
export function secondsOf(v: unknown, clock: number): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) {
    if (Math.abs(v - clock) <= TWENTY_YEARS) return v;
    if (Math.abs(v / 1000 - clock) <= TWENTY_YEARS) return v / 1000;
    return undefined;
  }
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? undefined : ms / 1000;
  }
  return undefined;
}

export const datesIn = (v: unknown, clock: number) =>
  leaves(v).flatMap((l) => {
    const s = secondsOf(l.value, clock);
    return s === undefined ? [] : [s];
  });

/** The paths at which a JSON value holds this time, in whatever form. */
export const pathsOfTime = (v: unknown, t: number, clock: number) =>
  leaves(v)
    .filter((l) => {
      const s = secondsOf(l.value, clock);
      return s !== undefined && Math.abs(s - t) < 1;
    })
    .map((l) => l.path);

/** Whether a JSON value holds this text as one of its values (e-mails and roles compared caseless). */
export const holdsText = (v: unknown, text: string, caseless = false) =>
  leaves(v).some(
    (l) =>
      typeof l.value === 'string' &&
      (caseless ? l.value.toLowerCase() === text.toLowerCase() : l.value === text),
  );

/** A whole UTC day: a date given as YYYY-MM-DD names the same instant. */
export const midnightAfter = (t: number) => Math.ceil(t / DAY) * DAY;
export const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The entries of a list answer: the answer itself when it is an array, else its first array. The
 * kit wraps lists (`{assignments: […], totalCount}`); seed 000 shows no wrapping, so none is named.
 */
export function entriesIn(e: Exchange, what: string): unknown[] {
  const b = e.body;
  const list = Array.isArray(b)
    ? b
    : b && typeof b === 'object'
      ? Object.values(b).find((v): v is unknown[] => Array.isArray(v))
      : undefined;
  if (!list)
    throw new Incomplete(
      `${what} cannot be read from ${e.method} ${new URL(e.url).pathname}: the answer holds no list`,
    );
  return list;
}

// --- The run's fixtures, found by value ---

/**
 * The v2 id of a user made through v1, found by e-mail (seed 000, find_user: "name or e-mail
 * substring"). The user's entry is the one holding the e-mail, by value, or the only one found; a
 * search that finds nobody is a departure.
 */
export async function v2IdOf(ctx: Context, email: string): Promise<number> {
  const e = await ctx.v2.call('searchUsers', {
    query: { query: email, limit: 5 },
    headers: keyHeaders(ctx, 'searchUsers'),
  });
  mustPass(judge(ctx.v2, 'searchUsers', e, [200]));
  const users = entriesIn(e, 'the users found');
  if (!users.length)
    throw new Departure(
      `find_user does not find the user ${email}, made through v1, by their e-mail`,
      evidenceOf(e, `the user ${email} among the results`),
    );
  const user = users.find((u) => holdsText(u, email, true)) ?? (users.length === 1 ? users[0] : undefined);
  const id = (user as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'number')
    throw new Incomplete(
      `the id of the user ${email} cannot be read from GET /api/v2/users: the answer does not use the names the kit assumed`,
    );
  return id;
}

/**
 * A course's entry in find_course's answer, found by value: an object holding the course's name;
 * of those, the one that also holds its id.
 */
export async function courseEntry(ctx: Context, course: V1Course) {
  const query = course.name.slice(0, 24);
  const e = await ctx.v2.call('searchCourses', {
    query: { query, limit: 50 },
    headers: keyHeaders(ctx, 'searchCourses'),
  });
  mustPass(judge(ctx.v2, 'searchCourses', e, [200]));
  const named = objects(e.body).filter((o) => Object.values(o).includes(course.name));
  const entry = named.find((o) => Object.values(o).some((v) => v === course.id || v === String(course.id)));
  return { e, query, named, entry };
}
