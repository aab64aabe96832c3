// Roles and permissions (docs/adr-0002: roles). The seed names the
// permission identifiers and the role-hierarchy rule (000, "Permission identifiers used by tools");
// the roles and what each may do are the kit's choice.

export const PERMISSIONS = [
  'user_view',
  'course_view',
  'user_assign',
  'common_stat',
  'audit_view',
  'group_assign',
  'user_ban',
  'user_edit',
  'course_edit',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Highest rank first. */
export const ROLES = ['admin', 'manager', 'author', 'learner'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: PERMISSIONS,
  manager: [
    'user_view',
    'course_view',
    'user_assign',
    'group_assign',
    'common_stat',
    'audit_view',
    'user_ban',
    'user_edit',
  ],
  // `course_edit` only on courses the author owns or that are shared with them (checked per course).
  author: ['course_view', 'course_edit'],
  learner: [],
};

export const isRole = (alias: string): alias is Role => (ROLES as readonly string[]).includes(alias);

/** Larger is higher. */
export const rank = (role: Role) => ROLES.length - ROLES.indexOf(role);

/** Seed 000: "the target user must be below the caller's role" — strictly. */
export const outranks = (caller: Role, target: Role) => rank(caller) > rank(target);

export const hasPermission = (role: Role, permission: Permission) =>
  ROLE_PERMISSIONS[role].includes(permission);
