// Generation jobs run in the background (seed 000, AI tools: "generation runs in the background and
// takes about 10-30 seconds"): once the clock passes a job's time its course exists, whether or not
// anyone polls; course ids follow completion order, each settlement is a journalled command, so a
// replay gives the same ids; a running clock settles jobs on a timer, with no request at all.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSeed } from '../seed/index.ts';
import { VirtualClock } from './clock.ts';
import type { GenerationJob } from './model.ts';
import { type CommandLogEntry, Platform } from './platform.ts';

const ADA = 1;

function demoPlatform(frozen = true) {
  const seed = loadSeed('demo');
  const platform = new Platform(new VirtualClock({ start: seed.now, frozen }), loadSeed);
  platform.load(seed);
  return platform;
}

const withCommandLog = (p: Platform) => {
  const entries: CommandLogEntry[] = [];
  p.setCommandLog({ append: (e) => entries.push(structuredClone(e)), retract: () => entries.pop() });
  return entries;
};

/** A job of `seconds` of generation time, started by ada on the demo tenant. */
function startJob(p: Platform, prompt: string, seconds: number): GenerationJob {
  p.run('updateAiSettings', {
    tenantId: 'demo',
    patch: { generationMinSeconds: seconds, generationMaxSeconds: seconds },
  });
  return p.run('createJob', { tenantId: 'demo', actorId: ADA, input: { prompt } });
}

const job = (p: Platform, id: string) => p.tenant('demo').jobs.get(id) as GenerationJob;

describe('generation runs in the background (seed 000, AI tools: generation job queued → completed)', () => {
  it('a job whose time the clock passed has made its course without a poll: the advance settles it', () => {
    const p = demoPlatform();
    const courses = p.tenant('demo').courses.size;
    const started = startJob(p, 'A course about ladder safety', 20);
    p.run('advanceClock', { seconds: 19 });
    expect(job(p, started.id).status).toBe('queued');
    expect(p.tenant('demo').courses.size).toBe(courses);
    p.run('advanceClock', { seconds: 1 });
    const done = job(p, started.id);
    expect(done.status).toBe('completed');
    const course = p.tenant('demo').courses.get(done.result?.courseId ?? -1);
    expect(course).toMatchObject({ isDraft: true, ownerId: ADA, createdAt: started.completesAt });
    expect(p.tenant('demo').courses.size).toBe(courses + 1);
  });

  it('a job made to fail fails on its own too, and makes no course', () => {
    const p = demoPlatform();
    p.run('updateAiSettings', { tenantId: 'demo', patch: { failNextJobs: 1 } });
    const courses = p.tenant('demo').courses.size;
    const started = startJob(p, 'A course that fails', 10);
    p.run('advanceClock', { seconds: 30 });
    expect(job(p, started.id)).toMatchObject({ status: 'failed', error: { message: expect.any(String) } });
    expect(p.tenant('demo').courses.size).toBe(courses);
  });

  it('course ids follow completion order, not poll order: the job that finishes first gets the lower id', () => {
    const p = demoPlatform();
    const slow = startJob(p, 'A slow course', 30);
    const fast = startJob(p, 'A fast course', 10);
    p.run('advanceClock', { seconds: 60 });
    // The slow job is polled first (the poll's own command, as a client reading it would run it).
    p.run('settleJob', { tenantId: 'demo', jobId: slow.id });
    p.run('settleJob', { tenantId: 'demo', jobId: fast.id });
    const fastId = job(p, fast.id).result?.courseId ?? 0;
    const slowId = job(p, slow.id).result?.courseId ?? 0;
    expect(fastId).toBeGreaterThan(0);
    expect(slowId).toBe(fastId + 1);
  });

  it('a command after a job’s time settles the job first: a course cloned later takes the next id', () => {
    const p = demoPlatform();
    const started = startJob(p, 'A course about knots', 10);
    // Time passes as on a running clock: no command moved it.
    p.clock.advance(15);
    const copy = p.run('cloneV2', { tenantId: 'demo', actorId: ADA, courseId: 1 });
    expect(job(p, started.id).status).toBe('completed');
    expect(copy.id).toBe((job(p, started.id).result?.courseId ?? 0) + 1);
  });

  it('a read settles what is due (settleDueJobs), and the id a job’s course gets is the id it keeps: polls and later settlements change nothing', () => {
    const p = demoPlatform();
    const started = startJob(p, 'A course about fire', 10);
    p.clock.advance(10);
    p.settleDueJobs();
    const courseId = job(p, started.id).result?.courseId;
    expect(courseId).toEqual(expect.any(Number));
    const before = JSON.stringify(p.snapshot());
    p.settleDueJobs();
    p.run('settleJob', { tenantId: 'demo', jobId: started.id });
    p.clock.advance(3600);
    p.settleDueJobs();
    expect(JSON.stringify({ ...p.snapshot(), now: 0 })).toBe(
      JSON.stringify({ ...JSON.parse(before), now: 0 }),
    );
    expect(job(p, started.id).result?.courseId).toBe(courseId);
  });

  it('each settlement is a journalled command, in completion order; nothing is journalled while no job is due; the replay gives the same courses with the same ids', () => {
    const p = demoPlatform();
    const journal = withCommandLog(p);
    const slow = startJob(p, 'A slow course', 30);
    const fast = startJob(p, 'A fast course', 10);
    p.run('advanceClock', { seconds: 5 });
    expect(journal.map((e) => e.t)).not.toContain('settleJobs');
    p.run('advanceClock', { seconds: 55 });
    const settled = journal.filter((e) => e.t === 'settleJobs');
    expect(settled).toEqual([
      {
        t: 'settleJobs',
        a: {
          jobs: [
            { tenantId: 'demo', jobId: fast.id },
            { tenantId: 'demo', jobId: slow.id },
          ],
        },
        at: p.now(),
      },
    ]);
    const replayed = demoPlatform();
    for (const entry of journal) replayed.replay(entry);
    expect(replayed.snapshot()).toEqual(p.snapshot());
    expect(replayed.tenant('demo').jobs.get(slow.id)?.result).toEqual(job(p, slow.id).result);
  });

  it('a snapshot imported with a job past its time settles it right after, as the clock passing would', () => {
    const p = demoPlatform();
    const started = startJob(p, 'A course about ropes', 10);
    const snapshot = p.snapshot();
    const other = demoPlatform();
    other.run('importSnapshot', { snapshot: { ...snapshot, now: snapshot.now + 60 } });
    expect(other.tenant('demo').jobs.get(started.id)?.status).toBe('completed');
  });
});

describe('a running clock settles jobs on a timer (seed 000: generation runs in the background)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('makes the course when the job is due with no request and no command, journalled; stopped, it does nothing', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const p = demoPlatform(false);
    const journal = withCommandLog(p);
    const stop = p.settleJobsOnTime();
    const first = startJob(p, 'A course about ladders', 20);
    vi.advanceTimersByTime(21_000);
    expect(job(p, first.id).status).toBe('completed');
    expect(journal.at(-1)).toMatchObject({ t: 'settleJobs', a: { jobs: [{ jobId: first.id }] } });
    stop();
    const second = startJob(p, 'A course about ropes', 20);
    vi.advanceTimersByTime(60_000);
    expect(job(p, second.id).status).toBe('queued');
  });

  it('arms nothing on a frozen clock, which moves only through commands that settle after them', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const p = demoPlatform(true);
    const stop = p.settleJobsOnTime();
    startJob(p, 'A course about ladders', 20);
    expect(vi.getTimerCount()).toBe(0);
    stop();
  });
});
