// Time and jobs: the virtual clock with buttons that advance it, the generation jobs with the state
// they have now, and the generator's settings (durations, injected failures).
import { useState } from 'preact/hooks';
import type { components } from '../../../generated/admin.ts';
import { iso } from '../api.ts';
import { type Column, ErrorLine, Table, useConsole } from '../components.tsx';
import { usePage } from '../hooks.ts';

const STEPS: [string, number][] = [
  ['+1 minute', 60],
  ['+1 hour', 3600],
  ['+1 day', 86_400],
  ['+1 week', 604_800],
];

const JOBS: Column<components['schemas']['AiJobList']['jobs'][number]>[] = [
  { head: 'id', cell: (j) => j.id },
  { head: 'state', cell: (j) => j.status, class: 'state' },
  { head: 'prompt', cell: (j) => j.prompt },
  { head: 'created', cell: (j) => iso(j.createdAt) },
  { head: 'completes', cell: (j) => iso(j.completesAt) },
  { head: 'course', cell: (j) => j.courseId ?? '—' },
  { head: 'error', cell: (j) => j.error ?? '' },
];

export function TimePage() {
  const { admin, tenantId } = useConsole();
  const path = { tenantId };
  const [clock, setClock] = useState<components['schemas']['Clock'] | null>(null);
  const [jobs, setJobs] = useState<components['schemas']['AiJobList']['jobs']>([]);
  const [settings, setSettings] = useState<components['schemas']['AiSettings'] | null>(null);
  const page = usePage(
    () =>
      Promise.all([
        admin.GET('/clock'),
        admin.GET('/tenants/{tenantId}/ai/jobs', { params: { path, query: { limit: 50 } } }),
        admin.GET('/tenants/{tenantId}/ai', { params: { path } }),
      ]),
    ([c, j, s]) => {
      if (c.data) setClock(c.data);
      if (j.data) setJobs(j.data.jobs);
      if (s.data) setSettings(s.data);
    },
    [tenantId],
    // The clock may follow wall time and jobs come from clients: look again every 2 seconds.
    2000,
  );

  const advance = (seconds: number) =>
    page.change(admin.POST('/clock/advance', { body: { seconds } }), (c) => c && setClock(c));
  const save = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    return page.call(
      admin.PATCH('/tenants/{tenantId}/ai', {
        params: { path },
        body: {
          generationMinSeconds: Number(form.get('min')),
          generationMaxSeconds: Number(form.get('max')),
          failNextJobs: Number(form.get('fail')),
          failureMessage: String(form.get('message')),
        },
      }),
      (s) => s && setSettings(s),
    );
  };

  return (
    <section>
      <h2>Time and jobs</h2>
      <ErrorLine message={page.error} />
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
      <Table
        label="Generation jobs"
        columns={JOBS}
        rows={jobs}
        id={(j) => j.id}
        empty="No generation jobs yet."
      />
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
