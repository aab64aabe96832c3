// Users (seed 001, "User" and "Users"; seed 000, ban_user, unban_user, change_user_email).
// Each function checks everything first and changes state only when nothing is wrong.

import { hash } from 'node:crypto';
import { assign } from './assignments.ts';
import { checkedValues, checkValues } from './attributes.ts';
import { type Actor, audit } from './audit.ts';
import { characterCount } from './characters.ts';
import { conflict, FieldErrors, notFound, unprocessable } from './errors.ts';
import { userCreated } from './events.ts';
import { addMember } from './groups.ts';
import type { AttributeInputValue, User } from './model.ts';
import { isRole } from './roles.ts';
import type { TenantState } from './tenant-state.ts';
import { timeZoneProblem } from './timezones.ts';

export interface CreateUserInput {
  id?: string;
  name: string;
  email: string;
  /** The password, or — as logged (the state file's command log) — only its hash. */
  password?: string;
  passwordHash?: string;
  roleAlias: string;
  bio?: string;
  occupation?: string;
  location?: string;
  timezone?: string;
  language?: User['language'];
  fromApi?: boolean;
  courses?: number[];
  deadlineAt?: number;
  groups?: number[];
  attributes?: Record<string, AttributeInputValue>;
}

export interface UpdateUserInput {
  email: string;
  name?: string;
  password?: string;
  passwordHash?: string;
  roleAlias?: string;
  bio?: string;
  occupation?: string;
  location?: string;
  timezone?: string;
  fromApi?: boolean;
  attributes?: Record<string, AttributeInputValue>;
}

/**
 * A mock needs no slow hash; it only must never keep the password itself. One-shot `hash`: a Hash
 * object per call cost several times the digest itself, on every created user.
 */
export const hashPassword = (password: string) => hash('sha256', `lmskit:${password}`, 'hex');

/** The input as it may be written down: the password replaced by its hash (state files, snapshots). */
export function withoutPassword<T extends { password?: string; passwordHash?: string }>(input: T): T {
  if (input.password === undefined) return input;
  const { password, ...rest } = input;
  return { ...rest, passwordHash: hashPassword(password) } as T;
}

export function userByApiId(t: TenantState, apiId: string): User {
  const user = t.userByApiId(apiId);
  if (!user) throw notFound(`user ${apiId}`);
  return user;
}

export function userById(t: TenantState, id: number): User {
  const user = t.users.get(id);
  if (!user) throw notFound(`user ${id}`);
  return user;
}

/** Seed 001, User: `timezone` is a TZ name (mock/domain/timezones.ts). */
function checkTimeZone(timezone: string | undefined, errors: FieldErrors): void {
  const problem = timezone === undefined ? null : timeZoneProblem(timezone);
  if (problem) errors.add('timezone', problem);
}

function checkEmail(t: TenantState, email: string, self: User | null, errors: FieldErrors): void {
  const holder = t.userByEmail(email);
  if (holder && holder.id !== self?.id) errors.add('email', 'e-mail is already taken');
}

export function createUser(t: TenantState, actor: Actor, input: CreateUserInput, at: number): User {
  const errors = new FieldErrors();
  checkEmail(t, input.email, null, errors);
  if (input.password === undefined ? !input.passwordHash : characterCount(input.password) < 8) {
    errors.add('password', 'password must be at least 8 characters');
  }
  if (!isRole(input.roleAlias)) errors.add('roleAlias', `unknown role ${input.roleAlias}`);
  checkTimeZone(input.timezone, errors);
  if (input.id !== undefined && t.userByApiId(input.id)) errors.add('id', 'id is already taken');
  input.courses?.forEach((id, i) => {
    if (!t.courses.has(id)) errors.add(`courses[${i}]`, `course ${id} not found`);
  });
  input.groups?.forEach((id, i) => {
    if (!t.groups.has(id)) errors.add(`groups[${i}]`, `group ${id} not found`);
  });
  if (input.attributes) checkValues(t, 'user', input.attributes, errors);
  errors.throwIfAny();

  const id = t.nextId('user');
  let apiId = input.id ?? `u${id}`;
  while (t.userByApiId(apiId)) apiId = `${apiId}x`;
  const user: User = {
    id,
    apiId,
    name: input.name,
    email: input.email,
    passwordHash: input.passwordHash ?? hashPassword(input.password ?? ''),
    role: input.roleAlias as User['role'],
    language: input.language ?? 'en',
    timezone: input.timezone ?? 'UTC',
    occupation: input.occupation ?? '',
    location: input.location ?? '',
    bio: input.bio ?? '',
    fromApi: input.fromApi ?? true,
    isBanned: false,
    attributes: checkedValues(input.attributes ?? {}),
    groupIds: [],
    createdAt: at,
  };
  t.addUser(user);
  userCreated(t, user, at);
  audit(t, actor, at, 'user.create', { type: 'user', id: user.apiId });
  for (const courseId of input.courses ?? [])
    assign(t, user.id, courseId, { deadlineAt: input.deadlineAt ?? null }, at);
  for (const groupId of input.groups ?? []) addMember(t, groupId, user.id, at);
  return user;
}

/** PATCH: the fields given change; `attributes`, when given, replaces the complete set (seed 001). */
export function updateUser(
  t: TenantState,
  actor: Actor,
  apiId: string,
  input: UpdateUserInput,
  at: number,
): User {
  const found = userByApiId(t, apiId);
  const errors = new FieldErrors();
  checkEmail(t, input.email, found, errors);
  if (input.password !== undefined && characterCount(input.password) < 8)
    errors.add('password', 'password must be at least 8 characters');
  if (input.roleAlias !== undefined && !isRole(input.roleAlias))
    errors.add('roleAlias', `unknown role ${input.roleAlias}`);
  checkTimeZone(input.timezone, errors);
  if (input.attributes) checkValues(t, 'user', input.attributes, errors);
  errors.throwIfAny();

  const user = t.editUser(found.id) as User;
  t.setUserEmail(user.id, input.email);
  if (input.name !== undefined) t.setUserName(user.id, input.name);
  if (input.password !== undefined || input.passwordHash !== undefined) {
    user.passwordHash = input.passwordHash ?? hashPassword(input.password ?? '');
  }
  if (input.roleAlias !== undefined) user.role = input.roleAlias as User['role'];
  if (input.bio !== undefined) user.bio = input.bio;
  if (input.occupation !== undefined) user.occupation = input.occupation;
  if (input.location !== undefined) user.location = input.location;
  if (input.timezone !== undefined) user.timezone = input.timezone;
  if (input.fromApi !== undefined) user.fromApi = input.fromApi;
  if (input.attributes) user.attributes = checkedValues(input.attributes);
  audit(t, actor, at, 'user.update', { type: 'user', id: user.apiId });
  return user;
}

/** Courses on which the user is an expert: what keeps them from being banned (seed 001, 422). */
export const expertCourses = (t: TenantState, user: User) =>
  [...t.courses.values()].flatMap((c) => {
    const e = c.experts.find((x) => x.userId === user.id);
    return e
      ? [{ id: c.id, name: c.name, expertHomeworks: e.homeworks, expertClassworks: e.classworks }]
      : [];
  });

/** Seed 001, "User ban state": an expert cannot be banned; banning a banned user changes nothing. */
export function banUser(t: TenantState, actor: Actor, user: User, at: number): User {
  const courses = expertCourses(t, user);
  if (courses.length) {
    throw unprocessable(
      'USER_IS_EXPERT',
      `User ${user.apiId} cannot be banned: assigned as expert at ${courses.length} course(s)`,
      { data: { courses } },
    );
  }
  if (user.isBanned) return user;
  const banned = t.editUser(user.id) as User;
  banned.isBanned = true;
  audit(t, actor, at, 'user.ban', { type: 'user', id: user.apiId });
  return banned;
}

export function unbanUser(t: TenantState, actor: Actor, user: User, at: number): User {
  if (!user.isBanned) return user;
  const unbanned = t.editUser(user.id) as User;
  unbanned.isBanned = false;
  audit(t, actor, at, 'user.unban', { type: 'user', id: user.apiId });
  return unbanned;
}

/** Seed 000, change_user_email: unique e-mail; the standard notification is recorded in the audit log. */
export function changeEmail(t: TenantState, actor: Actor, user: User, email: string, at: number): User {
  const holder = t.userByEmail(email);
  if (holder && holder.id !== user.id)
    throw conflict('EMAIL_TAKEN', `e-mail ${email} is already taken`, {
      fields: { email: ['e-mail is already taken'] },
    });
  const previous = user.email;
  t.setUserEmail(user.id, email);
  audit(
    t,
    actor,
    at,
    'user.email.change',
    { type: 'user', id: user.apiId },
    { from: previous, to: email, notificationSent: true },
  );
  return t.users.get(user.id) as User;
}
