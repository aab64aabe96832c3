// Permissions and the role hierarchy, with keys of other roles (seed 000, Permission identifiers used by tools; What the service does 2-3).
import type { Check } from '../types.ts';

export const permissionChecks: Check[] = [];
