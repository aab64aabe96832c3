// Faults and snapshots: injected faults (add, clear), the whole state downloaded and uploaded, reset.
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../generated/admin.ts';
import { download, problem } from '../api.ts';
import { ErrorLine, useConsole, useLoads } from '../shared.tsx';

type Method = components['schemas']['HttpMethod'];

export function FaultsPage() {
  const { admin } = useConsole();
  const [faults, setFaults] = useState<components['schemas']['Fault'][]>([]);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const loads = useLoads();
  const load = async () => {
    const n = loads.begin();
    const { data, error: e } = await admin.GET('/faults');
    if (!loads.take(n)) return;
    if (data) setFaults(data.faults);
    setError(e ? problem(e) : null);
  };
  useEffect(() => {
    load();
  }, []);

  const add = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const status = String(form.get('status'));
    const latency = String(form.get('latency'));
    const { error: e } = await admin.POST('/faults', {
      body: {
        method: String(form.get('method')) as Method,
        path: String(form.get('path')),
        count: Number(form.get('count')),
        ...(status ? { status: Number(status) } : {}),
        ...(latency ? { latencyMs: Number(latency) } : {}),
      },
    });
    setError(e ? problem(e) : null);
    await load();
  };
  const clear = async () => {
    const { error: e } = await admin.DELETE('/faults');
    setError(e ? problem(e) : null);
    await load();
  };
  const remove = async (id: string) => {
    const { error: e } = await admin.DELETE('/faults/{faultId}', { params: { path: { faultId: id } } });
    setError(e ? problem(e) : null);
    await load();
  };
  const exportState = async () => {
    const { data, error: e } = await admin.GET('/snapshot');
    if (data) download('lmskit-snapshot.json', data);
    setError(e ? problem(e) : null);
  };
  const importState = async (file: File | undefined) => {
    if (!file) return;
    let snapshot: components['schemas']['StateSnapshot'];
    try {
      snapshot = JSON.parse(await file.text());
    } catch {
      setError(`${file.name} is not JSON`);
      return;
    }
    const { data, error: e } = await admin.PUT('/snapshot', { body: snapshot });
    setError(e ? problem(e) : null);
    setDone(data ? `Loaded ${file.name}: tenants ${data.tenants.join(', ')}` : null);
  };
  const reset = async (seed: 'demo' | 'empty') => {
    if (!confirm(`Reset the whole state to the ${seed} seed?`)) return;
    const { data, error: e } = await admin.POST('/reset', { body: { seed } });
    setError(e ? problem(e) : null);
    setDone(data ? `Reset to the ${data.seed} seed: ${data.reset.join(', ')}` : null);
    // The faults went with the reset.
    await load();
  };

  return (
    <section>
      <h2>Faults and snapshots</h2>
      <ErrorLine message={error} />
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
      <table aria-label="Faults">
        <thead>
          <tr>
            <th>id</th>
            <th>method</th>
            <th>path</th>
            <th>status</th>
            <th>latency</th>
            <th>remaining</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {faults.map((f) => (
            <tr data-id={f.id}>
              <td>{f.id}</td>
              <td>{f.method ?? 'any'}</td>
              <td>
                {f.path ?? 'any'}
                {f.tool ? ` · tool ${f.tool}` : ''}
                {f.match ? ` · matching ${JSON.stringify(f.match)}` : ''}
              </td>
              <td>{f.status ?? 'real answer'}</td>
              <td>{f.latencyMs ?? 0} ms</td>
              <td>{f.remaining}</td>
              <td>
                <button type="button" aria-label={`Remove ${f.id}`} onClick={() => remove(f.id)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
