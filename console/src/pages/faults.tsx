// Faults and snapshots: injected faults (add, clear), the whole state downloaded and uploaded, reset.
import { useState } from 'preact/hooks';
import type { components } from '../../../generated/admin.ts';
import { download } from '../api.ts';
import { type Column, ErrorLine, Table, useConsole } from '../components.tsx';
import { usePage } from '../hooks.ts';

type Method = components['schemas']['HttpMethod'];

type Fault = components['schemas']['Fault'];

export function FaultsPage() {
  const { admin } = useConsole();
  const [faults, setFaults] = useState<Fault[]>([]);
  const [done, setDone] = useState<string | null>(null);
  const page = usePage(
    () => admin.GET('/faults'),
    ({ data }) => data && setFaults(data.faults),
    [],
  );

  const add = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const status = String(form.get('status'));
    const latency = String(form.get('latency'));
    return page.change(
      admin.POST('/faults', {
        body: {
          method: String(form.get('method')) as Method,
          path: String(form.get('path')),
          count: Number(form.get('count')),
          ...(status ? { status: Number(status) } : {}),
          ...(latency ? { latencyMs: Number(latency) } : {}),
        },
      }),
    );
  };
  const clear = () => page.change(admin.DELETE('/faults'));
  const remove = (faultId: string) =>
    page.change(admin.DELETE('/faults/{faultId}', { params: { path: { faultId } } }));
  const exportState = () =>
    page.call(admin.GET('/snapshot'), (snapshot) => snapshot && download('lmskit-snapshot.json', snapshot));
  const importState = async (file: File | undefined) => {
    if (!file) return;
    let snapshot: components['schemas']['StateSnapshot'];
    try {
      snapshot = JSON.parse(await file.text());
    } catch {
      page.fail(`${file.name} is not JSON`);
      return;
    }
    const loaded = await page.call(admin.PUT('/snapshot', { body: snapshot }));
    setDone(loaded ? `Loaded ${file.name}: tenants ${loaded.tenants.join(', ')}` : null);
  };
  const reset = (seed: 'demo' | 'empty') => {
    if (!confirm(`Reset the whole state to the ${seed} seed?`)) return;
    // The faults went with the reset: the page loads them again.
    return page.change(admin.POST('/reset', { body: { seed } }), (data) =>
      setDone(data ? `Reset to the ${data.seed} seed: ${data.reset.join(', ')}` : null),
    );
  };
  const columns: Column<Fault>[] = [
    { head: 'id', cell: (f) => f.id },
    { head: 'method', cell: (f) => f.method ?? 'any' },
    {
      head: 'path',
      cell: (f) => (
        <>
          {f.path ?? 'any'}
          {f.tool ? ` · tool ${f.tool}` : ''}
          {f.match ? ` · matching ${JSON.stringify(f.match)}` : ''}
        </>
      ),
    },
    { head: 'status', cell: (f) => f.status ?? 'real answer' },
    { head: 'latency', cell: (f) => `${f.latencyMs ?? 0} ms` },
    { head: 'remaining', cell: (f) => f.remaining },
    {
      head: '',
      cell: (f) => (
        <button type="button" aria-label={`Remove ${f.id}`} onClick={() => remove(f.id)}>
          Remove
        </button>
      ),
    },
  ];

  return (
    <section>
      <h2>Faults and snapshots</h2>
      <ErrorLine message={page.error} />
      {done ? <p role="status">{done}</p> : null}
      <h3>Injected faults</h3>
      <form class="inline" aria-label="New fault" onSubmit={add}>
        <label>
          Method
          <select name="method">
            {(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).map((m) => (
              <option value={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          Path
          <input name="path" placeholder="/openapi/v1/courses or /api/v2/*" required />
        </label>
        <label>
          Status
          <input name="status" type="number" min="100" max="599" placeholder="503" />
        </label>
        <label>
          Latency (ms)
          <input name="latency" type="number" min="0" placeholder="0" />
        </label>
        <label>
          Times
          <input name="count" type="number" min="1" value="1" />
        </label>
        <button type="submit">Add fault</button>
      </form>
      <Table label="Faults" columns={columns} rows={faults} id={(f) => f.id} />
      <button type="button" onClick={clear} disabled={faults.length === 0}>
        Clear all faults
      </button>
      <h3>Snapshot</h3>
      <p>
        <button type="button" onClick={exportState}>
          Download snapshot
        </button>{' '}
        <label class="file">
          Upload snapshot{' '}
          <input
            type="file"
            accept="application/json"
            onChange={(e) => importState(e.currentTarget.files?.[0])}
          />
        </label>
      </p>
      <h3>Reset</h3>
      <p>
        <button type="button" onClick={() => reset('demo')}>
          Reset to demo
        </button>{' '}
        <button type="button" onClick={() => reset('empty')}>
          Reset to empty
        </button>
      </p>
    </section>
  );
}
