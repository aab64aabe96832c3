// Webhooks: the tenant's receivers (add, remove) and the deliveries with their state and attempts; one
// delivery's signed request (headers and raw body) on demand; any delivery sent again (a new delivery of
// the same event, which the mock's dispatcher sends at once).
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../generated/admin.ts';
import { iso, problem } from '../api.ts';
import { ErrorLine, useConsole, useLoads } from '../shared.tsx';

export function WebhooksPage() {
  const { admin, tenantId } = useConsole();
  const path = { tenantId };
  const [receivers, setReceivers] = useState<components['schemas']['WebhookReceiver'][]>([]);
  const [deliveries, setDeliveries] = useState<components['schemas']['WebhookDelivery'][]>([]);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<components['schemas']['WebhookDeliveryDetail'] | null>(null);
  const [queued, setQueued] = useState<string | null>(null);

  const loads = useLoads();
  const load = async () => {
    const n = loads.begin();
    const [r, d] = await Promise.all([
      admin.GET('/tenants/{tenantId}/webhooks', { params: { path } }),
      admin.GET('/tenants/{tenantId}/webhooks/deliveries', { params: { path, query: { limit: 100 } } }),
    ]);
    if (!loads.take(n)) return;
    if (r.data) setReceivers(r.data.receivers);
    if (d.data) setDeliveries(d.data.deliveries);
    if (r.error || d.error) setError(problem(r.error ?? d.error));
  };
  useEffect(() => {
    load();
    // Deliveries change as the dispatcher works: look again every 2 seconds.
    const timer = setInterval(load, 2000);
    return () => clearInterval(timer);
  }, [tenantId]);

  const add = async (event: Event) => {
    event.preventDefault();
    const { error: e } = await admin.POST('/tenants/{tenantId}/webhooks', {
      params: { path },
      body: { url, secret },
    });
    setError(e ? problem(e) : null);
    if (!e) setUrl('');
    await load();
  };
  const show = async (deliveryId: string) => {
    const { data, error: e } = await admin.GET('/tenants/{tenantId}/webhooks/deliveries/{deliveryId}', {
      params: { path: { tenantId, deliveryId } },
    });
    setShown(data ?? null);
    setError(e ? problem(e) : null);
  };
  const redeliver = async (deliveryId: string) => {
    const { data, error: e } = await admin.POST(
      '/tenants/{tenantId}/webhooks/deliveries/{deliveryId}/redeliver',
      {
        params: { path: { tenantId, deliveryId } },
      },
    );
    setQueued(
      data ? `${data.id} queued: ${data.eventType} (${data.eventId}) again, as ${deliveryId} sent it.` : null,
    );
    setError(e ? problem(e) : null);
    await load();
  };
  const remove = async (receiverId: string) => {
    const { error: e } = await admin.DELETE('/tenants/{tenantId}/webhooks/{receiverId}', {
      params: { path: { tenantId, receiverId } },
    });
    setError(e ? problem(e) : null);
    await load();
  };

  return (
    <section>
      <h2>Webhooks</h2>
      <ErrorLine message={error} />
      <form class="inline" aria-label="New receiver" onSubmit={add}>
        <label>
          URL
          <input
            value={url}
            placeholder="http://127.0.0.1:9000/hooks"
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </label>
        <label>
          Secret
          <input
            value={secret}
            placeholder="signing secret"
            onInput={(e) => setSecret(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Add receiver</button>
      </form>
      <table aria-label="Receivers">
        <thead>
          <tr>
            <th>id</th>
            <th>url</th>
            <th>events</th>
            <th>created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {receivers.map((r) => (
            <tr data-id={r.id}>
              <td>{r.id}</td>
              <td>{r.url}</td>
              <td>{r.events?.join(', ') ?? 'all'}</td>
              <td>{iso(r.createdAt)}</td>
              <td>
                <button type="button" onClick={() => remove(r.id)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Deliveries</h3>
      {queued ? (
        <p class="muted" role="status" aria-label="Redelivery queued">
          {queued}
        </p>
      ) : null}
      <table aria-label="Deliveries">
        <thead>
          <tr>
            <th>id</th>
            <th>receiver</th>
            <th>event</th>
            <th>state</th>
            <th>attempts</th>
            <th>next attempt</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr data-id={d.id}>
              <td>
                {d.id}
                {d.redeliveryOf ? <span class="muted"> (again: {d.redeliveryOf})</span> : null}
              </td>
              <td>{d.receiverId}</td>
              <td>
                {d.eventType} ({d.eventId})
              </td>
              <td class="state">{d.state}</td>
              <td>
                {d.attempts.map((a) => `${a.at} → ${a.status ?? a.error ?? '?'}`).join('; ') || 'none yet'}
              </td>
              <td>{d.nextAttemptAt ?? '—'}</td>
              <td>
                <button type="button" onClick={() => show(d.id)}>
                  Request
                </button>
                <button type="button" onClick={() => redeliver(d.id)}>
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown ? (
        <section aria-label="Delivery request">
          <h3>
            {shown.delivery.id}: POST {shown.request.url}
          </h3>
          <pre class="headers">
            {Object.entries(shown.request.headers)
              .map(([name, value]) => `${name}: ${value}`)
              .join('\n')}
          </pre>
          <pre class="body">{shown.request.body}</pre>
        </section>
      ) : null}
    </section>
  );
}
