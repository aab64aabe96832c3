// Step 7 (seed 000, "Permission identifiers used by tools"): the owner's role must hold the
// operation's permission (`x-permission` in openapi/v2). The rules that need the target — role
// hierarchy, chain ownership, `course_edit` on that course — are the domain's, checked per command.
import type { Caller } from '../../../domain/access.ts';
import { hasPermission, type Permission } from '../../../domain/roles.ts';
import type { Failure } from './failure.ts';

export function checkPermission(
  caller: Caller,
  operation: { 'x-permission'?: string | null },
): Failure | null {
  const permission = operation['x-permission'];
  if (!permission || hasPermission(caller.user.role, permission as Permission)) return null;
  return {
    status: 403,
    code: 'PERMISSION_DENIED',
    message: `Missing permission ${permission}: the key's owner (${caller.user.role}) may not do this.`,
  };
}
