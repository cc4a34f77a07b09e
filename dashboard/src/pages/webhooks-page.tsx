import { useCallback, useState, type FormEvent } from 'react';
import { describeError, request } from '../api/api-client';
import { useAdminLoad } from '../api/use-admin-load';
import type { Session } from '../api/session-store';
import { Unavailable } from '../components/unavailable';
import { formatTime } from '../format';

const eventTypes = ['escalation-created', 'user-message', 'escalation-claimed', 'operator-message', 'escalation-resolved', 'escalation-abandoned'];

interface Endpoint {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  createdAt: string;
}

interface Delivery {
  id: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
}

/** Webhook endpoints: add (secret shown once), rotate the secret, remove, read the delivery log. */
export function WebhooksPage({ session }: { session: Session }) {
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const [url, setUrl] = useState('');
  const [kinds, setKinds] = useState<string[]>(eventTypes);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [log, setLog] = useState<{ endpointId: string; deliveries: Delivery[] } | null>(null);
  const [retrying, setRetrying] = useState<string | null>(null);

  const { missing, error, setError, reload: load } = useAdminLoad(
    useCallback(async () => {
      setEndpoints((await request<{ endpoints: Endpoint[] }>(session, 'GET', '/admin/webhooks')).endpoints);
    }, [session]),
  );

  if (missing) return <Unavailable what="Webhooks" />;

  const run = async (action: () => Promise<void>): Promise<void> => {
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  const create = (event: FormEvent): void => {
    event.preventDefault();
    void run(async () => {
      const created = await request<{ endpoint: Endpoint; secret: string }>(session, 'POST', '/admin/webhooks', { url: url.trim(), eventTypes: kinds });
      setSecret({ label: `Signing secret for ${created.endpoint.url}`, value: created.secret });
      setUrl('');
      await load();
    });
  };
  const rotate = (endpoint: Endpoint): void =>
    void run(async () => {
      const rotated = await request<{ secret: string; previousSecretExpiresAt: string }>(session, 'POST', `/admin/webhooks/${encodeURIComponent(endpoint.id)}/rotate-secret`);
      setSecret({ label: `New secret for ${endpoint.url} (the old one works until ${formatTime(rotated.previousSecretExpiresAt)})`, value: rotated.secret });
    });
  const remove = (endpoint: Endpoint): void =>
    void run(async () => {
      await request(session, 'DELETE', `/admin/webhooks/${encodeURIComponent(endpoint.id)}`);
      if (log?.endpointId === endpoint.id) setLog(null);
      await load();
    });
  const showLog = (endpoint: Endpoint): void =>
    void run(async () => {
      const data = await request<{ deliveries: Delivery[] }>(session, 'GET', `/admin/webhooks/${encodeURIComponent(endpoint.id)}/deliveries?limit=50`);
      setLog({ endpointId: endpoint.id, deliveries: data.deliveries });
    });
  const retry = (endpoint: Endpoint, delivery: Delivery): void => {
    setRetrying(delivery.id);
    void run(async () => {
      try {
        await request(session, 'POST', `/admin/webhooks/deliveries/${encodeURIComponent(delivery.id)}/retry`);
      } finally {
        setRetrying(null);
        // Refresh even after a 409: the log then shows the delivery's real status.
        showLog(endpoint);
      }
    });
  };
  const toggle = (kind: string): void => setKinds((current) => (current.includes(kind) ? current.filter((k) => k !== kind) : [...current, kind]));

  return (
    <div className="page">
      <h1>Webhooks</h1>
      <p className="muted">Escalation events are POSTed to your endpoints, signed with the endpoint's secret.</p>
      {secret && (
        <section className="card created-key" role="status" aria-label="New secret">
          <p>{secret.label}. Copy it now: it will not be shown again.</p>
          <div className="row">
            <label htmlFor="webhook-secret" className="visually-hidden">Secret</label>
            <input id="webhook-secret" className="mono" readOnly value={secret.value} onFocus={(event) => event.target.select()} />
            <button type="button" onClick={() => void navigator.clipboard?.writeText(secret.value).catch(() => undefined)}>Copy</button>
            <button type="button" onClick={() => setSecret(null)}>Done</button>
          </div>
        </section>
      )}
      <form className="card form-grid" onSubmit={create} aria-labelledby="webhook-create">
        <h2 id="webhook-create">Add an endpoint</h2>
        <label htmlFor="webhook-url">URL</label>
        <input id="webhook-url" type="url" required value={url} onChange={(event) => setUrl(event.target.value)} placeholder="https://example.com/parley-events" />
        <fieldset className="full kinds">
          <legend>Events</legend>
          {eventTypes.map((kind) => (
            <label key={kind} className="checkbox"><input type="checkbox" checked={kinds.includes(kind)} onChange={() => toggle(kind)} /> {kind}</label>
          ))}
        </fieldset>
        <div className="form-actions"><button type="submit" className="primary" disabled={kinds.length === 0}>Add endpoint</button></div>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
      <ul className="endpoint-list">
        {endpoints.map((endpoint) => (
          <li key={endpoint.id} className="card">
            <div className="row">
              <strong className="mono grow">{endpoint.url}</strong>
              <button type="button" onClick={() => showLog(endpoint)}>Delivery log</button>
              <button type="button" onClick={() => rotate(endpoint)}>Rotate secret</button>
              <button type="button" className="danger" onClick={() => remove(endpoint)} aria-label={`Remove ${endpoint.url}`}>Remove</button>
            </div>
            <p className="muted small">{endpoint.eventTypes.join(', ')}</p>
            {log?.endpointId === endpoint.id && (
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Deliveries to {endpoint.url}</caption>
                  <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
                  <tbody>
                    {log.deliveries.map((delivery) => (
                      <tr key={delivery.id}>
                        <td>{formatTime(delivery.createdAt)}</td>
                        <td>{delivery.eventType}</td>
                        <td><span className={`badge ${delivery.status === 'delivered' ? 'active' : delivery.status === 'failed' ? 'failed' : 'pending'}`}>{delivery.status}</span></td>
                        <td>{delivery.attempts}</td>
                        <td>{delivery.lastStatusCode ?? delivery.lastError ?? ''}</td>
                        <td>
                          {delivery.status === 'failed' && (
                            <button type="button" onClick={() => retry(endpoint, delivery)} disabled={retrying === delivery.id} aria-label={`Retry ${delivery.eventType} delivery from ${formatTime(delivery.createdAt)}`}>
                              {retrying === delivery.id ? 'Retrying…' : 'Retry'}
                            </button>
                          )}
                        </td>
                      </tr>
                    ))}
                    {log.deliveries.length === 0 && <tr><td colSpan={6} className="empty">No deliveries yet.</td></tr>}
                  </tbody>
                </table>
              </div>
            )}
          </li>
        ))}
        {endpoints.length === 0 && <li className="empty">No endpoints yet.</li>}
      </ul>
    </div>
  );
}
