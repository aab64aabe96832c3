// Generation runs in the background (seed 000, AI tools: "generation runs in the background and takes
// about 10-30 seconds"), through the real `lmskit mock` process and its state file (docs/mock.md,
// Durable state): a job's course exists once the clock passes its time, with no poll; it is journalled
// then, so after kill -9 and a restart the course is there with the same id; and on a running clock
// a timer settles the job although no request comes at all.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { client, freePort, type RunningProcess, startLmskit } from './process.ts';

const TOKEN = 'ai-jobs-e2e-admin-token';
const dir = mkdtempSync(join(tmpdir(), 'lmskit-ai-jobs-e2e-'));
const running: RunningProcess[] = [];
afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  rmSync(dir, { recursive: true, force: true });
});

async function mock(port: number, args: string[]) {
  const p = await startLmskit(['mock', '--port', String(port), '--admin-token', TOKEN, ...args], /ready/);
  running.push(p);
  const base = `http://127.0.0.1:${port}`;
  const site = /X-API-KEY (\S+)/.exec(p.output())?.[1] ?? '';
  const write = /MCP key \(read\+write, ada\): X-MCP-Key (\S+)/.exec(p.output())?.[1] ?? '';
  return {
    p,
    v1: client(`${base}/openapi/v1`, { 'x-api-key': site }),
    v2: client(`${base}/api/v2`, { 'x-mcp-key': write }),
    admin: client(`${base}/__admin`, { authorization: `Bearer ${TOKEN}` }),
  };
}

async function kill(p: RunningProcess) {
  p.child.kill('SIGKILL');
  await p.exited;
}

const jobOf = async (m: Awaited<ReturnType<typeof mock>>, jobId: string) =>
  ((await m.admin('/tenants/demo/ai/jobs')).body.jobs as any[]).find((j) => j.id === jobId);

describe('generation jobs of the real process with a state file (seed 000, AI tools: generation runs in the background)', () => {
  it('after the clock passes the job’s time its course is in v1 /courses with no poll, and after kill -9 and a restart it is still there with the same id', async () => {
    const stateFile = join(dir, 'frozen.jsonl');
    const port = await freePort();
    const args = ['--frozen-clock', '--state-file', stateFile];
    const first = await mock(port, args);
    const started = await first.v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'Create a course about ladder safety' },
    });
    expect(started.status).toBe(202);
    const { jobId } = started.body;
    expect((await first.admin('/clock/advance', { method: 'POST', json: { seconds: 60 } })).status).toBe(200);

    const job = await jobOf(first, jobId);
    expect(job).toMatchObject({ status: 'completed', courseId: expect.any(Number) });
    const course = await first.v1(`/courses/${job.courseId}`);
    expect(course).toMatchObject({ status: 200, body: { id: job.courseId, name: 'Ladder safety' } });
    const total = (await first.v1('/courses')).body.totalCount;

    await kill(first.p);
    const second = await mock(port, args);
    expect(await jobOf(second, jobId)).toEqual(job);
    expect((await second.v1(`/courses/${job.courseId}`)).body).toEqual(course.body);
    expect((await second.v1('/courses')).body.totalCount).toBe(total);
    const polled = await second.v2(`/ai/courses/generate/${jobId}`);
    expect(polled.body).toMatchObject({ jobId, status: 'completed', result: { courseId: job.courseId } });
  });

  it('on a running clock the job is settled and journalled when its time comes, with no request at all; a restart after kill -9 shows its course', async () => {
    const stateFile = join(dir, 'running.jsonl');
    const port = await freePort();
    const args = ['--state-file', stateFile, '--ai-seconds', '1'];
    const first = await mock(port, args);
    const started = await first.v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'Create a course about rope knots' },
    });
    expect(started.status).toBe(202);
    const { jobId } = started.body;
    // No request from here on: the file is read until it holds the job's settlement.
    const settled = await new Promise<boolean>((resolve) => {
      const deadline = Date.now() + 30_000;
      const look = () => {
        const lines = readFileSync(stateFile, 'utf8').split('\n');
        if (lines.some((l) => l.includes('"settleJobs"') && l.includes(`"${jobId}"`))) return resolve(true);
        if (Date.now() > deadline) return resolve(false);
        setTimeout(look, 100);
      };
      look();
    });
    expect(settled).toBe(true);

    await kill(first.p);
    const second = await mock(port, args);
    const job = await jobOf(second, jobId);
    expect(job).toMatchObject({ status: 'completed', courseId: expect.any(Number) });
    expect((await second.v1(`/courses/${job.courseId}`)).body).toMatchObject({ name: 'Rope knots' });
  });
});
