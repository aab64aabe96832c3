// The /api/v2 writes (seed 000, Write tools), acting as the MCP key's owner.
import {
  type AssignUserInput,
  assignChain,
  assignCourseToGroups,
  assignUserToCourse,
  banByAgent,
  changeEmailByAgent,
  cloneByAgent,
  unbanByAgent,
} from '../agent-writes.ts';
import type { User } from '../model.ts';
import { userById } from '../users.ts';
import type { CommandPlatform } from './command.ts';

/** The key owner a `/api/v2` command acts as. */
export const actor = (p: CommandPlatform, a: { tenantId: string; actorId: number }): User =>
  userById(p.tenant(a.tenantId), a.actorId);
export type AgentArgs = { tenantId: string; actorId: number };

export const AGENT_COMMANDS = {
  assignUserV2: (p: CommandPlatform, a: AgentArgs & { courseId: number; input: AssignUserInput }) =>
    assignUserToCourse(p.tenant(a.tenantId), a.actorId, a.courseId, a.input, p.now()),

  assignGroupsV2: (
    p: CommandPlatform,
    a: AgentArgs & { courseId: number; groups: number[]; deadlineAt?: number },
  ) => assignCourseToGroups(p.tenant(a.tenantId), a.actorId, a.courseId, a.groups, a.deadlineAt, p.now()),

  assignChain: (
    p: CommandPlatform,
    a: AgentArgs & { chainId: number; users?: number[]; groups?: number[]; deadlineAt?: number },
  ) => assignChain(p.tenant(a.tenantId), actor(p, a), a.chainId, a, p.now()),

  banV2: (p: CommandPlatform, a: AgentArgs & { userId: number }) =>
    banByAgent(p.tenant(a.tenantId), actor(p, a), a.userId, p.now()),

  unbanV2: (p: CommandPlatform, a: AgentArgs & { userId: number }) =>
    unbanByAgent(p.tenant(a.tenantId), actor(p, a), a.userId, p.now()),

  changeEmailV2: (p: CommandPlatform, a: AgentArgs & { userId: number; email: string }) =>
    changeEmailByAgent(p.tenant(a.tenantId), actor(p, a), a.userId, a.email, p.now()),

  cloneV2: (p: CommandPlatform, a: AgentArgs & { courseId: number }) =>
    cloneByAgent(p.tenant(a.tenantId), actor(p, a), a.courseId, p.now()),
};
