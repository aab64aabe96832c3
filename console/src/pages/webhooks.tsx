// Webhooks: the tenant's receivers (add, remove) and the deliveries with their state and attempts; one
// delivery's signed request (headers and raw body) on demand; any delivery sent again (a new delivery of
// the same event, which the mock's dispatcher sends at once).
import { useState } from 'preact/hooks';
import type { components } from '../../../generated/admin.ts';
import { iso } from '../api.ts';
import { type Column, ErrorLine, Table, useConsole } from '../components.tsx';
import { usePage } from '../hooks.ts';

type Receiver = components['schemas']['WebhookReceiver'];
type Delivery = components['schemas']['WebhookDelivery'];

export function WebhooksPage() {
  const { admin, tenantId } = useConsole();
  const path = { tenantId };
  const [receivers, setReceivers] = useState<Receiver[]>([]);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [shown, setShown] = useState<components['schemas']['WebhookDeliveryDetail'] | null>(null);
  const [queued, setQueued] = useState<string | null>(null);
  const page = usePage(
    () =>
      Promise.all([
        admin.GET('/tenants/{tenantId}/webhooks', { params: { path } }),
        admin.GET('/tenants/{tenantId}/webhooks/deliveries', { params: { path, query: { limit: 100 } } }),
      ]),
    ([r, d]) => {
      if (r.data) setReceivers(r.data.receivers);
      if (d.data) setDeliveries(d.data.deliveries);
    },
    [tenantId],
    // Deliveries change as the dispatcher works: look again every 2 seconds.
    2000,
  );

  const add = (event: Event) => {
    event.preventDefault();
    return page.change(
      admin.POST('/tenants/{tenantId}/webhooks', { params: { path }, body: { url, secret } }),
      (receiver) => receiver && setUrl(''),
    );
  };
  const show = (deliveryId: string) =>
    page.call(
      admin.GET('/tenants/{tenantId}/webhooks/deliveries/{deliveryId}', {
        params: { path: { tenantId, deliveryId } },
      }),
      (detail) => setShown(detail ?? null),
    );
  const redeliver = (deliveryId: string) =>
    page.change(
      admin.POST('/tenants/{tenantId}/webhooks/deliveries/{deliveryId}/redeliver', {
        params: { path: { tenantId, deliveryId } },
      }),
      (again) =>
        setQueued(
          again
            ? `${again.id} queued: ${again.eventType} (${again.eventId}) again, as ${deliveryId} sent it.`
            : null,
        ),
    );
  const remove = (receiverId: string) =>
    page.change(
      admin.DELETE('/tenants/{tenantId}/webhooks/{receiverId}', {
        params: { path: { tenantId, receiverId } },
      }),
    );
  const receiverColumns: Column<Receiver>[] = [
    { head: 'id', cell: (r) => r.id },
    { head: 'url', cell: (r) => r.url },
    { head: 'events', cell: (r) => r.events?.join(', ') ?? 'all' },
    { head: 'created', cell: (r) => iso(r.createdAt) },
    {
      head: '',
      cell: (r) => (
        <button type="button" onClick={() => remove(r.id)}>
          Remove
        </button>
      ),
    },
  ];
  const deliveryColumns: Column<Delivery>[] = [
    {
      head: 'id',
      cell: (d) => (
        <>
          {d.id}
          {d.redeliveryOf ? <span class="muted"> (again: {d.redeliveryOf})</span> : null}
        </>
      ),
    },
    { head: 'receiver', cell: (d) => d.receiverId },
    { head: 'event', cell: (d) => `${d.eventType} (${d.eventId})` },
    { head: 'state', cell: (d) => d.state, class: 'state' },
    {
      head: 'attempts',
      cell: (d) => d.attempts.map((a) => `${a.at} → ${a.status ?? a.error ?? '?'}`).join('; ') || 'none yet',
    },
    { head: 'next attempt', cell: (d) => d.nextAttemptAt ?? '—' },
    {
      head: '',
      cell: (d) => (
        <>
          <button type="button" onClick={() => show(d.id)}>
            Request
          </button>
          <button type="button" onClick={() => redeliver(d.id)}>
            Redeliver
          </button>
        </>
      ),
    },
  ];

  return (
    <section>
      <h2>Webhooks</h2>
      <ErrorLine message={page.error} />
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
      <Table label="Receivers" columns={receiverColumns} rows={receivers} id={(r) => r.id} />
      <h3>Deliveries</h3>
      {queued ? (
        <p class="muted" role="status" aria-label="Redelivery queued">
          {queued}
        </p>
      ) : null}
      <Table label="Deliveries" columns={deliveryColumns} rows={deliveries} id={(d) => d.id} />
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
