// The admin API takes a user in either form (openapi/admin UserRef): the integer id of /api/v2 or the
// API ID of /openapi/v1, so an integrator need not look one up from the other. Digits only are the
// integer id (the contract coerces them to a number before this runs).
import { notFound } from '../../domain/errors.ts';
import type { TenantState } from '../../domain/tenant-state.ts';

/** The integer id of the user `ref` names in tenant `t`; 404 `NOT_FOUND` when there is none. */
export function userIdOf(t: TenantState, ref: unknown): number {
  const user =
    typeof ref === 'number'
      ? t.users.get(ref)
      : /^\d+$/.test(String(ref))
        ? t.users.get(Number(ref))
        : t.userByApiId(String(ref));
  if (!user) throw notFound(`user ${String(ref)}`);
  return user.id;
}
