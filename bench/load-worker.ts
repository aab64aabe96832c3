// The load generator's own process: autocannon runs here, never in the process that starts and
// measures the servers, and the bench pins this process to other cores than the servers' where the
// machine has them (bench/machine.ts). Jobs arrive over IPC, one at a time; each answer is a summary.
import autocannon from 'autocannon';
import type { LoadJob, LoadSummary } from './load.ts';

/** A body per request where the job asks for unique ones (a write that must not collide). */
function bodyFor(job: LoadJob, n: number): string | undefined {
  if (!job.uniqueBody) return job.body;
  return job.uniqueBody.replaceAll('{n}', `${process.pid}-${job.id}-${n}`);
}

/**
 * Where each list of paths goes on, by its first path: a run continues where the last run over the
 * same list stopped. Restarting every run at the first path asked the warm-up's queries again in
 * every round, and on a slower machine a quarter to a half of a round's "new" searches then came
 * from the mock's answer cache, which keeps an answer from its second ask.
 */
const cursors = new Map<string, number>();

async function run(job: LoadJob): Promise<LoadSummary> {
  let n = 0;
  const list = job.paths?.[0] ?? '';
  let at = cursors.get(list) ?? 0;
  const headers = {
    ...job.headers,
    ...(job.body || job.uniqueBody ? { 'content-type': 'application/json' } : {}),
  };
  const requests =
    job.uniqueBody || job.paths
      ? [
          {
            setupRequest: (req: autocannon.Request) => {
              n++;
              const path = job.paths ? job.paths[at++ % job.paths.length] : req.path;
              return { ...req, path, body: bodyFor(job, n) };
            },
          },
        ]
      : undefined;
  const result = await autocannon({
    url: job.url,
    method: job.method,
    headers,
    body: job.uniqueBody ? undefined : job.body,
    connections: job.connections,
    duration: job.seconds,
    // autocannon notices the end of a run only at its next sample tick (1 s by default), so a 0.6 s
    // run took a whole second; ticking every 50 ms ends it on time.
    sampleInt: 50,
    ...(requests ? { requests } : {}),
  } as autocannon.Options);
  if (job.paths) cursors.set(list, at);
  return {
    // Over the run's measured length: autocannon's per-second average needs whole seconds.
    requests: result.requests.total,
    reqPerSec: result.requests.total / Math.max(result.duration, 0.001),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

process.on('message', (job: LoadJob) => {
  run(job).then(
    (summary) => process.send?.({ id: job.id, summary }),
    (error: Error) => process.send?.({ id: job.id, error: error.message }),
  );
});
process.on('disconnect', () => process.exit(0));
