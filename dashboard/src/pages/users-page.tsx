import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { describeError, isMissingRoute, request } from '../api/api-client';
import type { Project } from '../api/admin-types';
import type { Session } from '../api/session-store';
import { ProjectPicker } from '../components/project-picker';
import { Unavailable } from '../components/unavailable';
import { formatTime } from '../format';

interface EndUser {
  userId: string;
  name: string | null;
  identifiers: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  sessions?: Array<{ sessionId: string; createdAt: string; endedAt: string | null }>;
}

/** Identified users (POST /agent/identify): readable and deletable only here. */
export function UsersPage({ session }: { session: Session }) {
  const [projects, setProjects] = useState<Project[]>([]);
  const [projectId, setProjectId] = useState('');
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [users, setUsers] = useState<EndUser[]>([]);
  const [selected, setSelected] = useState<EndUser | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const base = `/admin/projects/${encodeURIComponent(projectId)}/end-users`;

  useEffect(() => {
    request<{ projects: Project[] }>(session, 'GET', '/admin/projects')
      .then((data) => {
        setProjects(data.projects);
        setProjectId(data.projects[0]?.id ?? '');
      })
      .catch((caught: unknown) => (isMissingRoute(caught) ? setMissing(true) : setError(describeError(caught))));
  }, [session]);

  const load = useCallback(async () => {
    if (!projectId) return;
    try {
      const data = await request<{ endUsers: EndUser[] }>(session, 'GET', `${base}?limit=100${query ? `&search=${encodeURIComponent(query)}` : ''}`);
      setUsers(data.endUsers);
      setError(null);
    } catch (caught) {
      if (isMissingRoute(caught)) setMissing(true);
      else setError(describeError(caught));
    }
  }, [session, base, projectId, query]);

  useEffect(() => {
    void load();
  }, [load]);

  if (missing) return <Unavailable what="Identified users" />;

  const open = async (userId: string): Promise<void> => {
    setConfirming(false);
    try {
      setSelected(await request<EndUser>(session, 'GET', `${base}/${encodeURIComponent(userId)}`));
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  const remove = async (userId: string): Promise<void> => {
    try {
      await request(session, 'DELETE', `${base}/${encodeURIComponent(userId)}`);
      setSelected(null);
      await load();
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setQuery(search.trim());
  };

  return (
    <div className="page">
      <div className="row page-head">
        <h1>Identified users</h1>
        <ProjectPicker id="users-project" projects={projects} value={projectId} onChange={(id) => { setProjectId(id); setSelected(null); }} />
      </div>
      <p className="muted">People your app identified with POST /agent/identify. Their identifiers are never sent to the model.</p>
      <form className="row" role="search" onSubmit={submit}>
        <label htmlFor="user-search" className="visually-hidden">Search by user id or name</label>
        <input id="user-search" className="grow" type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Search by user id or name" />
        <button type="submit">Search</button>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
      {selected && (
        <section className="card" aria-labelledby="user-title">
          <h2 id="user-title">{selected.name ?? selected.userId}</h2>
          <dl className="pairs">
            <dt>User id</dt><dd className="mono">{selected.userId}</dd>
            {Object.entries(selected.identifiers).map(([key, value]) => (<div key={key} className="dl-row"><dt>{key}</dt><dd>{value}</dd></div>))}
            <dt>First seen</dt><dd>{formatTime(selected.createdAt)}</dd>
            <dt>Sessions</dt><dd>{selected.sessions?.length ?? 0}</dd>
          </dl>
          <div className="row">
            {confirming ? (
              <>
                <button type="button" className="danger" onClick={() => void remove(selected.userId)}>Confirm delete</button>
                <button type="button" onClick={() => setConfirming(false)}>Cancel</button>
              </>
            ) : (
              <button type="button" className="danger" onClick={() => setConfirming(true)}>Delete this user</button>
            )}
            <button type="button" onClick={() => setSelected(null)}>Close</button>
          </div>
        </section>
      )}
      <div className="card table-wrap">
        <table>
          <caption className="visually-hidden">Identified users</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">User id</th><th scope="col">Identifiers</th><th scope="col">Last seen</th></tr></thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.userId}>
                <td><button type="button" className="link" onClick={() => void open(user.userId)}>{user.name ?? '(no name)'}</button></td>
                <td className="mono">{user.userId}</td>
                <td>{Object.entries(user.identifiers).map(([key, value]) => `${key}: ${value}`).join(' · ')}</td>
                <td>{formatTime(user.updatedAt)}</td>
              </tr>
            ))}
            {users.length === 0 && <tr><td colSpan={4} className="empty">{query ? 'No one matches.' : 'No identified users yet.'}</td></tr>}
          </tbody>
        </table>
      </div>
    </div>
  );
}
