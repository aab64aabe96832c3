// The AI tools' commands (seed 000, AI tools): the extracted chunks come in, so replay needs neither
// the file nor the extractor.
import {
  aiQuotaRefusal,
  consumeAiQuota,
  createJob,
  type GenerateInput,
  processUpload,
  recordUpload,
  refineCourse,
  regenerateLesson,
  regenerateQuestion,
  settleJob,
  type UploadInput,
  updateAiSettings,
} from '../ai.ts';
import { utcDay } from '../clock.ts';
import { conflict } from '../errors.ts';
import type { AiSettings } from '../model.ts';
import { type AgentArgs, actor } from './agent.ts';
import type { CommandPlatform } from './command.ts';

/** `quotaKeyId`: the key whose daily AI quota the call uses (seed 000, Limits). */
type AiArgs = AgentArgs & { quotaKeyId?: string };

/**
 * An AI call counts against the day's quota in the same command, so the call and its count are
 * logged, or refused, together. The quota is checked here too, not only by the v2 pipeline before
 * the call: replicas of a shared store racing on the day's last call are ordered by the command log,
 * and only the first finds room (docs/mock.md, Shared sandbox).
 */
function counted<R>(p: CommandPlatform, a: AiArgs, call: () => R): R {
  if (!a.quotaKeyId) return call();
  const tenant = p.tenant(a.tenantId);
  const refusal = aiQuotaRefusal(tenant, a.quotaKeyId, p.now());
  if (refusal) throw conflict('MCP_RATE_LIMITED', refusal.message, { retryAfter: refusal.retryAfter });
  const result = call();
  consumeAiQuota(tenant, a.quotaKeyId, p.now());
  return result;
}

export const AI_COMMANDS = {
  recordUpload: (p: CommandPlatform, a: UploadInput & { tenantId: string }) =>
    recordUpload(p.tenant(a.tenantId), a, p.now()),

  processUpload: (p: CommandPlatform, a: { tenantId: string; sessionId: string; fileId: string }) =>
    processUpload(p.tenant(a.tenantId), a.sessionId, a.fileId),

  createJob: (p: CommandPlatform, a: AiArgs & { input: GenerateInput }) => {
    const job = counted(p, a, () => createJob(p.tenant(a.tenantId), actor(p, a), a.input, p.now()));
    p.jobsChanged();
    return job;
  },

  /**
   * Jobs whose time has come, settled in the order they finish (seed 000, AI tools: generation runs in
   * the background). The platform runs it whenever it finds jobs due (`Platform.settleDueJobs`); the
   * jobs are named, so a replay settles the same ones in the same order and their courses keep their ids.
   */
  settleJobs: (p: CommandPlatform, a: { jobs: { tenantId: string; jobId: string }[] }) => {
    const settled = a.jobs.map(({ tenantId, jobId }) => settleJob(p.tenant(tenantId), jobId, p.now()));
    p.jobsChanged();
    return settled;
  },

  /** One job settled when a client polled it: in command logs written before jobs settled on their own. */
  settleJob: (p: CommandPlatform, a: { tenantId: string; jobId: string }) => {
    const job = settleJob(p.tenant(a.tenantId), a.jobId, p.now());
    p.jobsChanged();
    return job;
  },

  refineCourse: (p: CommandPlatform, a: AiArgs & { courseId: number; feedback: string }) =>
    counted(p, a, () => refineCourse(p.tenant(a.tenantId), actor(p, a), a.courseId, a.feedback, p.now())),

  regenerateQuestion: (p: CommandPlatform, a: AiArgs & { questionId: number; feedback?: string }) =>
    counted(p, a, () =>
      regenerateQuestion(p.tenant(a.tenantId), actor(p, a), a.questionId, a.feedback, p.now()),
    ),

  regenerateLesson: (p: CommandPlatform, a: AiArgs & { lessonId: number; feedback?: string }) =>
    counted(p, a, () => regenerateLesson(p.tenant(a.tenantId), actor(p, a), a.lessonId, a.feedback, p.now())),

  /** A separate command in command logs written before AI calls counted themselves (see `counted`). */
  consumeAiQuota: (p: CommandPlatform, a: { tenantId: string; keyId: string }) =>
    consumeAiQuota(p.tenant(a.tenantId), a.keyId, p.now()),

  /** The day's AI calls of the tenant and of each of its keys back to 0 (admin API, resetLimits). */
  resetAiQuota: (p: CommandPlatform, a: { tenantId: string }) => {
    const t = p.tenant(a.tenantId);
    t.aiUsage = { day: utcDay(p.now()), perKey: {}, tenant: 0 };
    return t.aiUsage;
  },

  updateAiSettings: (p: CommandPlatform, a: { tenantId: string; patch: Partial<AiSettings> }) =>
    updateAiSettings(p.tenant(a.tenantId), a.patch),
};
