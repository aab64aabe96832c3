// The audit log: every write through either API appends an entry (docs/adr-0002: the audit
// log). `authorId` is null for the site API key.
import { isCalendarDay } from './clock.ts';
import { invalid } from './errors.ts';
import type { AuditEntry } from './model.ts';
import type { TenantState } from './tenant-state.ts';

export interface Actor {
  /** The acting user, or null for the v1 site API key and the admin API. */
  userId: number | null;
}

export const SITE_KEY: Actor = { userId: null };

/**
 * How many entries a tenant's audit log keeps, the newest (docs/adr-0002: the audit log). The seeds
 * show no retention; without one, every write of a long-running mock would grow its memory and state
 * file for good. An eighth more than the excess is dropped at once, so a write does not move the
 * whole log every time, and a log read from an older state file is cut down at its first write.
 */
export const AUDIT_RETENTION = 10_000;
const AUDIT_TRIM = AUDIT_RETENTION / 8;

export function audit(
  t: TenantState,
  actor: Actor,
  at: number,
  action: string,
  target: AuditEntry['target'],
  details: Record<string, unknown> = {},
): void {
  t.audit.push({ id: t.nextId('audit'), createdAt: at, authorId: actor.userId, action, target, details });
  if (t.audit.length > AUDIT_RETENTION) t.audit.splice(0, t.audit.length - AUDIT_RETENTION + AUDIT_TRIM);
}

export interface AuditQuery {
  authorId?: number;
  /** Unix seconds, inclusive. */
  from?: number;
  /** Unix seconds, inclusive. */
  to?: number;
  limit: number;
  offset: number;
}

/** Seed 000, get_audit_log: filtered by author and time window, newest first, paged. */
export function queryAudit(t: TenantState, q: AuditQuery): { entries: AuditEntry[]; total: number } {
  const matching = t.audit.filter(
    (e) =>
      (q.authorId === undefined || e.authorId === q.authorId) &&
      (q.from === undefined || e.createdAt >= q.from) &&
      (q.to === undefined || e.createdAt <= q.to),
  );
  matching.reverse();
  return { entries: matching.slice(q.offset, q.offset + q.limit), total: matching.length };
}

/**
 * `fields[createdAt][from|to]`: an ISO date-time, or a `YYYY-MM-DD` day, which as `to` means the
 * end of that day. Answers Unix seconds, or null when the text is not a date.
 */
export function parseAuditDate(text: string, end: boolean): number | null {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  // A day of the calendar (the contract's parameters say so): Date.parse takes 2026-02-30 as March 2nd.
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!date || !isCalendarDay(Number(date[1]), Number(date[2]), Number(date[3]))) return null;
  const ms = Date.parse(day ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(ms)) return null;
  return Math.floor(ms / 1000) + (day && end ? 86_399 : 0);
}

export interface AuditLogRequest {
  authorId?: number;
  /** `fields[createdAt][from]` as sent: see parseAuditDate. */
  from?: string;
  /** `fields[createdAt][to]` as sent: a day means its end. */
  to?: string;
  limit: number;
  offset: number;
}

/**
 * Seed 000, get_audit_log: the window's dates read (a text that is not one is refused before
 * anything is looked up), the page queried, and each entry's author named as `{id, name}`, or null
 * for the site API key and a user no longer known.
 */
export function readAuditLog(t: TenantState, r: AuditLogRequest) {
  const from = r.from === undefined ? undefined : parseAuditDate(r.from, false);
  const to = r.to === undefined ? undefined : parseAuditDate(r.to, true);
  if (from === null || to === null)
    throw invalid(
      'fields[createdAt][from|to] must be an ISO date-time or YYYY-MM-DD of a day the calendar has.',
    );
  const { entries, total } = queryAudit(t, {
    authorId: r.authorId,
    from,
    to,
    limit: r.limit,
    offset: r.offset,
  });
  return {
    entries: entries.map((e) => {
      const author = e.authorId === null ? undefined : t.users.get(e.authorId);
      return { ...e, authorId: undefined, author: author ? { id: author.id, name: author.name } : null };
    }),
    total,
  };
}
