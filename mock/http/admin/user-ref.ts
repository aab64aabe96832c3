// The admin API takes a user in either form (openapi/admin UserRef): the integer id of /api/v2 or the
// API ID of /openapi/v1, so an integrator need not look one up from the other. Digits only are the
// integer id (the contract coerces them to a number before this runs); `api:` before a value makes
// it an API ID, so a v1 API ID of digits only (`api:123`) can be named too. An API ID is alphanumeric
// (openapi/v1 User), so the colon never belongs to one.
import { notFound } from '../../domain/errors.ts';
import type { TenantState } from '../../domain/tenant-state.ts';

const API_ID_PREFIX = 'api:';

/** The integer id of the user `ref` names in tenant `t`; 404 `NOT_FOUND` when there is none. */
export function userIdOf(t: TenantState, ref: unknown): number {
  const text = String(ref);
  const user =
    typeof ref === 'number'
      ? t.users.get(ref)
      : text.startsWith(API_ID_PREFIX)
        ? t.userByApiId(text.slice(API_ID_PREFIX.length))
        : /^\d+$/.test(text)
          ? t.users.get(Number(text))
          : t.userByApiId(text);
  if (!user) throw notFound(`user ${text}`);
  return user.id;
}
