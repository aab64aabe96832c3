// Time and jobs: the virtual clock with buttons that advance it, the generation jobs with the state
// they have now, and the generator's settings (durations, injected failures).
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../generated/admin.ts';
import { iso, problem } from '../api.ts';
import { ErrorLine, useConsole, useLoads } from '../shared.tsx';

const STEPS: [string, number][] = [
  ['+1 minute', 60],
  ['+1 hour', 3600],
  ['+1 day', 86_400],
  ['+1 week', 604_800],
];

export function TimePage() {
  const { admin, tenantId } = useConsole();
  const path = { tenantId };
  const [clock, setClock] = useState<components['schemas']['Clock'] | null>(null);
  const [jobs, setJobs] = useState<components['schemas']['AiJobList']['jobs']>([]);
  const [settings, setSettings] = useState<components['schemas']['AiSettings'] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const loads = useLoads();
  const load = async () => {
    const n = loads.begin();
    const [c, j, s] = await Promise.all([
      admin.GET('/clock'),
      admin.GET('/tenants/{tenantId}/ai/jobs', { params: { path, query: { limit: 50 } } }),
      admin.GET('/tenants/{tenantId}/ai', { params: { path } }),
    ]);
    if (!loads.take(n)) return;
    if (c.data) setClock(c.data);
    if (j.data) setJobs(j.data.jobs);
    if (s.data) setSettings(s.data);
    setError(c.error || j.error || s.error ? problem(c.error ?? j.error ?? s.error) : null);
  };
  useEffect(() => {
    load();
    // The clock may follow wall time and jobs come from clients: look again every 2 seconds.
    const timer = setInterval(load, 2000);
    return () => clearInterval(timer);
  }, [tenantId]);

  const advance = async (seconds: number) => {
    const { data, error: e } = await admin.POST('/clock/advance', { body: { seconds } });
    if (data) setClock(data);
    setError(e ? problem(e) : null);
    await load();
  };
  const save = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const { data, error: e } = await admin.PATCH('/tenants/{tenantId}/ai', {
      params: { path },
      body: {
        generationMinSeconds: Number(form.get('min')),
        generationMaxSeconds: Number(form.get('max')),
        failNextJobs: Number(form.get('fail')),
        failureMessage: String(form.get('message')),
      },
    });
    if (data) setSettings(data);
    setError(e ? problem(e) : null);
  };

  return (
    <section>
      <h2>Time and jobs</h2>
      <ErrorLine message={error} />
      <p>
        Virtual now:{' '}
        <strong role="status" aria-label="Virtual time">
          {clock?.iso ?? '…'}
        </strong>
      </p>
      <p>
        {STEPS.map(([label, seconds]) => (
          <button type="button" onClick={() => advance(seconds)}>
            {label}
          </button>
        ))}
      </p>
      <h3>Generation jobs</h3>
      <table aria-label="Generation jobs">
        <thead>
          <tr>
            <th>id</th>
            <th>state</th>
            <th>prompt</th>
            <th>created</th>
            <th>completes</th>
            <th>course</th>
            <th>error</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((j) => (
            <tr data-id={j.id}>
              <td>{j.id}</td>
              <td class="state">{j.status}</td>
              <td>{j.prompt}</td>
              <td>{iso(j.createdAt)}</td>
              <td>{iso(j.completesAt)}</td>
              <td>{j.courseId ?? '—'}</td>
              <td>{j.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {jobs.length === 0 ? <p class="muted">No generation jobs yet.</p> : null}
      <h3>Generator settings</h3>
      {settings ? (
        <form class="inline" aria-label="Generator settings" onSubmit={save} key={JSON.stringify(settings)}>
          <label>
            shortest job (s)
            <input name="min" type="number" min="0" max="3600" value={settings.generationMinSeconds} />
          </label>
          <label>
            longest job (s)
            <input name="max" type="number" min="0" max="3600" value={settings.generationMaxSeconds} />
          </label>
          <label>
            fail the next jobs
            <input name="fail" type="number" min="0" max="1000" value={settings.failNextJobs} />
          </label>
          <label>
            with message
            <input name="message" value={settings.failureMessage} />
          </label>
          <button type="submit">Save</button>
        </form>
      ) : null}
    </section>
  );
}
