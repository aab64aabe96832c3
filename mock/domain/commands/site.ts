// The v1 API's writes (seed 001), acting as the site key: users, attributes, groups, assignments.
import { assign, assignToGroup } from '../assignments.ts';
import { type AttributeInput, upsertAttributes } from '../attributes.ts';
import { SITE_KEY } from '../audit.ts';
import { notFound } from '../errors.ts';
import { createGroup, type GroupInput, updateGroup } from '../groups.ts';
import {
  banUser,
  type CreateUserInput,
  createUser,
  type UpdateUserInput,
  updateUser,
  userByApiId,
} from '../users.ts';
import type { CommandPlatform } from './command.ts';

export const SITE_COMMANDS = {
  createUser: (p: CommandPlatform, a: { tenantId: string; input: CreateUserInput }) =>
    createUser(p.tenant(a.tenantId), SITE_KEY, a.input, p.now()),

  updateUser: (p: CommandPlatform, a: { tenantId: string; apiId: string; input: UpdateUserInput }) =>
    updateUser(p.tenant(a.tenantId), SITE_KEY, a.apiId, a.input, p.now()),

  banUser: (p: CommandPlatform, a: { tenantId: string; apiId: string }) => {
    const t = p.tenant(a.tenantId);
    return banUser(t, SITE_KEY, userByApiId(t, a.apiId), p.now());
  },

  upsertAttributes: (
    p: CommandPlatform,
    a: { tenantId: string; scope: 'user' | 'group'; inputs: AttributeInput[] },
  ) => upsertAttributes(p.tenant(a.tenantId), a.scope, a.inputs),

  createGroup: (p: CommandPlatform, a: { tenantId: string; input: GroupInput }) =>
    createGroup(p.tenant(a.tenantId), SITE_KEY, a.input, p.now()),

  updateGroup: (p: CommandPlatform, a: { tenantId: string; groupId: number; input: GroupInput }) =>
    updateGroup(p.tenant(a.tenantId), SITE_KEY, a.groupId, a.input, p.now()),

  /**
   * v1 `POST /courses/{courseId}/assignments`: answers those successfully assigned (seed 001);
   * unknown or banned users and unknown groups are left out of the answer, not an error.
   */
  assignCourse: (
    p: CommandPlatform,
    a: {
      tenantId: string;
      courseId: number;
      users: string[];
      groups: number[];
      assignAt?: number;
      deadlineAt?: number;
    },
  ) => {
    const t = p.tenant(a.tenantId);
    if (!t.courses.has(a.courseId)) throw notFound(`course ${a.courseId}`);
    const options = { startAt: a.assignAt ?? null, deadlineAt: a.deadlineAt ?? null };
    const users = a.users.flatMap((apiId) => {
      const user = t.userByApiId(apiId);
      if (!user || user.isBanned) return [];
      assign(t, user.id, a.courseId, options, p.now());
      return [user];
    });
    const groups = a.groups.flatMap((id) => {
      const group = t.groups.get(id);
      if (!group) return [];
      assignToGroup(t, id, a.courseId, options, p.now());
      return [group];
    });
    return { users, groups };
  },
};
