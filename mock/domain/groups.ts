// Groups (seed 001, "Group" and "Groups"): a tree by `parentId` (a cycle is refused), members, and
// the courses assigned to the group, which its members — present and future — receive.
import { assign } from './assignments.ts';
import { checkedValues, checkValues } from './attributes.ts';
import { type Actor, audit } from './audit.ts';
import { FieldErrors, notFound } from './errors.ts';
import { groupUserCreated } from './events.ts';
import type { AttributeInputValue, Group, User } from './model.ts';
import type { TenantState } from './tenant-state.ts';

export interface GroupInput {
  name: string;
  parentId?: number | null;
  description?: string;
  attributes?: Record<string, AttributeInputValue>;
}

export function groupById(t: TenantState, id: number): Group {
  const group = t.groups.get(id);
  if (!group) throw notFound(`group ${id}`);
  return group;
}

/** True when making `parentId` the parent of `groupId` would close a loop. */
function wouldCycle(t: TenantState, groupId: number, parentId: number): boolean {
  for (let at: number | null = parentId; at !== null; at = t.groups.get(at)?.parentId ?? null) {
    if (at === groupId) return true;
  }
  return false;
}

function checkParent(
  t: TenantState,
  groupId: number | null,
  parentId: number | null | undefined,
  errors: FieldErrors,
): void {
  if (parentId === undefined || parentId === null) return;
  if (!t.groups.has(parentId)) errors.add('parentId', `group ${parentId} not found`);
  else if (groupId !== null && wouldCycle(t, groupId, parentId))
    errors.add('parentId', 'a group cannot be its own ancestor');
}

export function createGroup(t: TenantState, actor: Actor, input: GroupInput, at: number): Group {
  const errors = new FieldErrors();
  checkParent(t, null, input.parentId, errors);
  if (input.attributes) checkValues(t, 'group', input.attributes, errors);
  errors.throwIfAny();
  const group: Group = {
    id: t.nextId('group'),
    parentId: input.parentId ?? null,
    name: input.name,
    description: input.description ?? '',
    attributes: checkedValues(input.attributes ?? {}),
    memberIds: [],
    courseIds: [],
    createdAt: at,
  };
  t.groups.set(group.id, group);
  audit(t, actor, at, 'group.create', { type: 'group', id: String(group.id) });
  return group;
}

/** PATCH: `name` always; `parentId: null` detaches the group from its parent (seed 001). */
export function updateGroup(t: TenantState, actor: Actor, id: number, input: GroupInput, at: number): Group {
  const group = groupById(t, id);
  const errors = new FieldErrors();
  checkParent(t, id, input.parentId, errors);
  if (input.attributes) checkValues(t, 'group', input.attributes, errors);
  errors.throwIfAny();
  group.name = input.name;
  if (input.parentId !== undefined) group.parentId = input.parentId;
  if (input.description !== undefined) group.description = input.description;
  if (input.attributes) group.attributes = checkedValues(input.attributes);
  audit(t, actor, at, 'group.update', { type: 'group', id: String(group.id) });
  return group;
}

/** Adds a member (emits `group.user.created`) and gives them the group's courses. */
export function addMember(t: TenantState, groupId: number, userId: number, at: number): void {
  const group = groupById(t, groupId);
  if (!t.users.has(userId) || group.memberIds.includes(userId)) return;
  const user = t.editUser(userId) as User;
  group.memberIds.push(userId);
  user.groupIds.push(groupId);
  groupUserCreated(t, user, group, at);
  // A banned member gets no course (assignToGroup, x-assumed).
  if (!user.isBanned) for (const courseId of group.courseIds) assign(t, userId, courseId, {}, at);
}
