// The audit log: every write through either API appends an entry (issue #4: "Every write appends to
// the audit log, visible through both APIs"). `authorId` is null for the site API key.
import type { AuditEntry } from './model.ts';
import type { TenantState } from './tenant-state.ts';

export interface Actor {
  /** The acting user, or null for the v1 site API key and the admin API. */
  userId: number | null;
}

export const SITE_KEY: Actor = { userId: null };

export function audit(
  t: TenantState,
  actor: Actor,
  at: number,
  action: string,
  target: AuditEntry['target'],
  details: Record<string, unknown> = {},
): void {
  t.audit.push({ id: t.nextId('audit'), createdAt: at, authorId: actor.userId, action, target, details });
}
