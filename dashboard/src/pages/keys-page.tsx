import { useCallback, useState, type FormEvent } from 'react';
import { describeError, request } from '../api/api-client';
import { useAdminLoad } from '../api/use-admin-load';
import type { ApiKeySummary, Project } from '../api/admin-types';
import type { Session } from '../api/session-store';
import { Unavailable } from '../components/unavailable';
import { formatTime } from '../format';

export function KeysPage({ session }: { session: Session }) {
  const [keys, setKeys] = useState<ApiKeySummary[]>([]);
  const [projects, setProjects] = useState<Project[]>([]);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'sdk' | 'operator'>('sdk');
  const [projectId, setProjectId] = useState('');
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);

  const { missing, error, setError, reload: load } = useAdminLoad(
    useCallback(async () => {
      const [keyList, projectList] = await Promise.all([
        request<{ keys: ApiKeySummary[] }>(session, 'GET', '/admin/keys'),
        request<{ projects: Project[] }>(session, 'GET', '/admin/projects'),
      ]);
      setKeys(keyList.keys);
      setProjects(projectList.projects);
      setProjectId((current) => current || projectList.projects[0]?.id || '');
    }, [session]),
  );

  if (missing) return <Unavailable what="Key management" />;

  const create = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setError(null);
    try {
      const body = scope === 'sdk' ? { name: name.trim(), scope, projectId } : { name: name.trim(), scope };
      const result = await request<ApiKeySummary & { key: string }>(session, 'POST', '/admin/keys', body);
      setCreated({ name: result.name, key: result.key });
      setCopied(false);
      setName('');
      await load();
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  const revoke = async (id: string): Promise<void> => {
    setConfirming(null);
    try {
      await request(session, 'POST', `/admin/keys/${encodeURIComponent(id)}/revoke`);
      await load();
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  const copy = async (): Promise<void> => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      // Clipboard access can be refused (plain http, permissions): select the text instead.
      const field = document.getElementById('new-key') as HTMLInputElement | null;
      field?.select();
    }
  };

  const projectName = (id: string | null): string => (id ? (projects.find((p) => p.id === id)?.name ?? id) : 'whole workspace');

  return (
    <div className="page">
      <h1>API keys</h1>
      <p className="muted">sdk keys drive the agent routes of one project; operator keys work the escalation queue of the whole workspace. A key is shown once, when it is created.</p>
      {created && (
        <section className="card created-key" aria-labelledby="created-title" role="status">
          <h2 id="created-title">Key “{created.name}” created</h2>
          <p>Copy it now: it will not be shown again.</p>
          <div className="row">
            <label htmlFor="new-key" className="visually-hidden">New API key</label>
            <input id="new-key" className="mono" readOnly value={created.key} onFocus={(event) => event.target.select()} />
            <button type="button" className="primary" onClick={() => void copy()}>{copied ? 'Copied' : 'Copy'}</button>
            <button type="button" onClick={() => setCreated(null)}>Done</button>
          </div>
        </section>
      )}
      <form className="card form-grid" onSubmit={(event) => void create(event)} aria-labelledby="create-title">
        <h2 id="create-title">Create a key</h2>
        <label htmlFor="key-name">Name</label>
        <input id="key-name" value={name} maxLength={120} required onChange={(event) => setName(event.target.value)} placeholder="e.g. iOS app production" />
        <label htmlFor="key-scope">Scope</label>
        <select id="key-scope" value={scope} onChange={(event) => setScope(event.target.value as 'sdk' | 'operator')}>
          <option value="sdk">sdk: agent routes of one project</option>
          <option value="operator">operator: escalation queue of the workspace</option>
        </select>
        {scope === 'sdk' && (
          <>
            <label htmlFor="key-project">Project</label>
            <select id="key-project" value={projectId} onChange={(event) => setProjectId(event.target.value)} required>
              {projects.map((p) => (<option key={p.id} value={p.id}>{p.name}</option>))}
            </select>
          </>
        )}
        <div className="form-actions"><button type="submit" className="primary" disabled={name.trim() === ''}>Create key</button></div>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
      <div className="card table-wrap">
        <table>
          <caption className="visually-hidden">Keys of this workspace</caption>
          <thead>
            <tr><th scope="col">Name</th><th scope="col">Scope</th><th scope="col">Project</th><th scope="col">Key</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id} data-key-id={key.id}>
                <td>{key.name}</td>
                <td>{key.scope}</td>
                <td>{projectName(key.projectId)}</td>
                <td className="mono">{key.prefix}…</td>
                <td>{key.lastUsedAt ? formatTime(key.lastUsedAt) : 'never'}</td>
                <td>{key.revokedAt ? <span className="badge resolved">revoked</span> : <span className="badge active">active</span>}</td>
                <td>
                  {!key.revokedAt && (confirming === key.id ? (
                    <span className="row">
                      <button type="button" className="danger" onClick={() => void revoke(key.id)}>Confirm revoke</button>
                      <button type="button" onClick={() => setConfirming(null)}>Cancel</button>
                    </span>
                  ) : (
                    <button type="button" onClick={() => setConfirming(key.id)} aria-label={`Revoke ${key.name}`}>Revoke</button>
                  ))}
                </td>
              </tr>
            ))}
            {keys.length === 0 && <tr><td colSpan={7} className="empty">No keys yet.</td></tr>}
          </tbody>
        </table>
      </div>
    </div>
  );
}
