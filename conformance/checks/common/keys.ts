// The MCP keys a check acts with: how a reason names one, its headers, and what a check requires of
// the tools it is offered — a key given without them skips the check (naming the flag), a role key
// without them leaves it incomplete (the rule cannot be judged with that key).
import type { Role } from '../../config.ts';
import type { Context, KeyInfo } from '../../context.ts';
import { Incomplete, Skipped } from '../../outcomes.ts';

export { ROLES, type Role } from '../../config.ts';

/** A key's last four characters, how reasons name a key given without a role. */
export const tail = (key: string) => `…${key.slice(-4)}`;

/** How a key is named in a reason: by its role, or by its last four characters. */
export const who = (key: KeyInfo) => (key.role ? `the ${key.role} key` : `key ${tail(key.key)}`);

/** The headers that send a request with this key. */
export const headersOf = (key: KeyInfo) => ({ 'x-mcp-key': key.key });

/** The accepted key of a role (the runner has checked it was given: `needs.roles`). */
export const roleKey = (ctx: Context, role: Role) => ctx.roleKey(role) as KeyInfo;

/** The write key given must be offered these tools; the check is skipped otherwise, naming the flag. */
export function requireWriteTools(ctx: Context, ...tools: string[]): void {
  const missing = tools.filter((t) => !ctx.key('write')?.tools.includes(t));
  if (missing.length)
    throw new Skipped(`the write key given is not offered ${missing.join(', ')} (--mcp-key)`);
}

/** A role key must be offered a tool for a rule beyond its permission to be judged with it. */
export function mustOffer(key: KeyInfo, name: string, why: string): void {
  if (!key.tools.includes(name))
    throw new Incomplete(
      `${who(key)} is not offered ${name}, so ${why} cannot be judged with it: give as --role-key ${key.role} a key of a user who may use ${name}`,
    );
}
