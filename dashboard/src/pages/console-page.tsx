import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { describeError, request } from '../api/api-client';
import { openEventStream, type StreamState } from '../api/event-stream';
import { displayNameOf, type EscalationDetail, type FeedEvent, type IdentifiedUser, type OperatorQueue, type QueueItem } from '../api/escalation-types';
import { loadOperatorName, saveOperatorName, type Session } from '../api/session-store';
import { formatDuration, useNow } from '../format';
import { navigate } from '../router';
import { EscalationView } from './escalation-view';
import { OperatorNameForm } from './operator-name-form';

type Tab = 'open' | 'resolved';
const seenKey = 'parley.seen';

/** When the operator last looked at each escalation: what is newer is unread. */
function loadSeen(): Record<string, string> {
  try {
    return JSON.parse(localStorage.getItem(seenKey) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

export function ConsolePage({ session, path }: { session: Session; path: string }) {
  const selectedId = path.startsWith('/escalations/') ? decodeURIComponent(path.slice('/escalations/'.length)) : null;
  const [tab, setTab] = useState<Tab>('open');
  const [project, setProject] = useState('');
  const [queues, setQueues] = useState<Record<Tab, QueueItem[]>>({ open: [], resolved: [] });
  const [error, setError] = useState<string | null>(null);
  const [feedState, setFeedState] = useState<StreamState>('connecting');
  const [detailVersion, setDetailVersion] = useState(0);
  const [unread, setUnread] = useState<Record<string, string[]>>({});
  const [operatorName, setOperatorName] = useState(loadOperatorName);
  const [editingName, setEditingName] = useState(false);
  const [users, setUsers] = useState<Record<string, IdentifiedUser | null>>({});
  const [projectNames, setProjectNames] = useState<Record<string, string>>({});
  const usersRef = useRef(users);
  usersRef.current = users;
  const now = useNow();
  const selectedRef = useRef(selectedId);
  selectedRef.current = selectedId;

  const refresh = useCallback(async () => {
    try {
      const [open, resolved] = await Promise.all([
        request<OperatorQueue>(session, 'GET', '/escalations?status=open'),
        request<OperatorQueue>(session, 'GET', '/escalations?status=resolved'),
      ]);
      const next = { open: open.escalations, resolved: resolved.escalations };
      setQueues(next);
      setError(null);
      // The queue rows carry no names: look up who is waiting, once per escalation.
      const unknown = next.open.filter((item) => !(item.escalationId in usersRef.current)).slice(0, 20);
      const found = await Promise.all(
        unknown.map(async (item) => {
          const detail = await request<EscalationDetail>(session, 'GET', `/escalations/${encodeURIComponent(item.escalationId)}`).catch(() => null);
          return [item.escalationId, detail?.user ?? null] as const;
        }),
      );
      if (found.length > 0) setUsers((current) => ({ ...current, ...Object.fromEntries(found) }));
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [session]);

  useEffect(() => {
    request<{ projects: { id: string; name: string }[] }>(session, 'GET', '/admin/projects')
      .then((data) => setProjectNames(Object.fromEntries(data.projects.map((p) => [p.id, p.name]))))
      .catch(() => undefined);
  }, [session]);

  // Live updates: every feed event refreshes the queue (debounced) and the open escalation.
  useEffect(() => {
    void refresh();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const close = openEventStream({
      session,
      path: '/escalations/stream',
      onState: setFeedState,
      onEvent: (frame) => {
        let event: FeedEvent;
        try {
          event = JSON.parse(frame.data) as FeedEvent;
        } catch {
          return;
        }
        const id = event.escalationId;
        if (!id) return;
        if (id === selectedRef.current) setDetailVersion((v) => v + 1);
        else if (event.type === 'user-message' && event.message) {
          const seenAt = loadSeen()[id];
          const message = event.message;
          if (!seenAt || message.createdAt > seenAt) {
            setUnread((current) => {
              const known = current[id] ?? [];
              return known.includes(message.id) ? current : { ...current, [id]: [...known, message.id] };
            });
          }
        }
        clearTimeout(timer);
        timer = setTimeout(() => void refresh(), 150);
      },
    });
    return () => {
      clearTimeout(timer);
      close();
    };
  }, [session, refresh]);

  useEffect(() => {
    if (!selectedId) return;
    const seen = loadSeen();
    seen[selectedId] = new Date().toISOString();
    localStorage.setItem(seenKey, JSON.stringify(seen));
    setUnread((current) => {
      if (!current[selectedId]) return current;
      const { [selectedId]: _dropped, ...rest } = current;
      return rest;
    });
  }, [selectedId, detailVersion]);

  const projects = useMemo(() => {
    const all = new Map<string, string>();
    for (const item of [...queues.open, ...queues.resolved]) all.set(item.projectId, projectNames[item.projectId] ?? item.projectId);
    return [...all.entries()];
  }, [queues, projectNames]);
  const items = queues[tab].filter((item) => !project || item.projectId === project);

  return (
    <div className={`console ${selectedId ? 'has-selection' : ''}`}>
      <section className="queue card" aria-labelledby="queue-title">
        <div className="queue-head">
          <h2 id="queue-title">Queue</h2>
          <span className={`feed-state ${feedState}`} role="status">{feedState === 'live' ? 'Live' : feedState === 'connecting' ? 'Connecting…' : 'Reconnecting…'}</span>
        </div>
        <div className="tabs" role="group" aria-label="Escalation status">
          {(['open', 'resolved'] as const).map((t) => (
            <button key={t} type="button" aria-pressed={tab === t} className={tab === t ? 'selected' : ''} onClick={() => setTab(t)}>
              {t === 'open' ? 'Open' : 'Resolved'} <span className="count">{queues[t].length}</span>
            </button>
          ))}
        </div>
        <label htmlFor="project-filter" className="small-label">Project</label>
        <select id="project-filter" value={project} onChange={(event) => setProject(event.target.value)}>
          <option value="">All projects</option>
          {projects.map(([id, name]) => (
            <option key={id} value={id}>{name}</option>
          ))}
        </select>
        {error && <p className="error" role="alert">{error}</p>}
        <ul className="queue-list" aria-label={`${tab === 'open' ? 'Open' : 'Resolved'} escalations`}>
          {items.length === 0 && <li className="empty">{tab === 'open' ? 'No one is waiting.' : 'Nothing resolved yet.'}</li>}
          {items.map((item) => {
            const unreadCount = unread[item.escalationId]?.length ?? 0;
            const since = Date.parse(item.createdAt);
            return (
              <li key={item.escalationId}>
                <a
                  href={`/escalations/${encodeURIComponent(item.escalationId)}`}
                  className={`queue-item ${item.escalationId === selectedId ? 'current' : ''}`}
                  aria-current={item.escalationId === selectedId ? 'true' : undefined}
                  data-escalation-id={item.escalationId}
                  onClick={(event) => {
                    event.preventDefault();
                    navigate(`/escalations/${encodeURIComponent(item.escalationId)}`);
                  }}
                >
                  <span className="queue-item-top">
                    <strong>{displayNameOf(item.sessionId, users[item.escalationId])}</strong>
                    {unreadCount > 0 && <span className="unread" aria-label={`${unreadCount} unread`}>{unreadCount}</span>}
                  </span>
                  <span className="queue-item-meta">
                    <span className={`badge ${item.status}`}>{item.status}</span>
                    {item.claimedByName && <span>· {item.claimedByName}</span>}
                    {projects.length > 1 && <span>· {projectNames[item.projectId] ?? item.projectId}</span>}
                    {item.status !== 'resolved' && !Number.isNaN(since) && <span className="waiting" title="Waiting since it was escalated">· waiting {formatDuration(now - since)}</span>}
                  </span>
                  {item.note && <span className="queue-item-note">{item.note}</span>}
                </a>
              </li>
            );
          })}
        </ul>
      </section>
      <section className="detail" aria-label="Escalation">
        {operatorName === '' || editingName ? (
          <OperatorNameForm
            initial={operatorName || session.user.name}
            onSave={(name) => {
              saveOperatorName(name);
              setOperatorName(name);
              setEditingName(false);
            }}
          />
        ) : (
          <p className="operator-as muted">
            Replying as <strong>{operatorName}</strong>{' '}
            <button type="button" className="link" onClick={() => setEditingName(true)}>Change</button>
          </p>
        )}
        {selectedId ? (
          <EscalationView key={selectedId} session={session} escalationId={selectedId} version={detailVersion} operatorName={operatorName} onChanged={() => void refresh()} />
        ) : (
          <div className="card empty-detail"><p className="empty">Select an escalation in the queue.</p></div>
        )}
      </section>
    </div>
  );
}
