import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { describeError, request } from '../api/api-client';
import { displayNameOf, type EscalationDetail } from '../api/escalation-types';
import type { Session } from '../api/session-store';
import { formatTime } from '../format';
import { navigate } from '../router';

interface Props {
  session: Session;
  escalationId: string;
  /** Bumped by the console when the feed reports a change to this escalation. */
  version: number;
  operatorName: string;
  onChanged: () => void;
}

/** Message and note text is only ever rendered as React text nodes: never as HTML. */
export function EscalationView({ session, escalationId, version, operatorName, onChanged }: Props) {
  const [detail, setDetail] = useState<EscalationDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const transcriptEnd = useRef<HTMLLIElement | null>(null);
  const heading = useRef<HTMLHeadingElement | null>(null);
  const loaded = detail !== null;
  // On a narrow screen the queue (and the link just used) is hidden: move focus to the view.
  useEffect(() => {
    if (loaded && window.matchMedia('(max-width: 760px)').matches) heading.current?.focus();
  }, [loaded]);
  const path = `/escalations/${encodeURIComponent(escalationId)}`;

  const load = useCallback(async () => {
    try {
      setDetail(await request<EscalationDetail>(session, 'GET', path));
      setError(null);
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [session, path]);

  useEffect(() => {
    void load();
  }, [load, version]);

  const transcript = detail?.messages ?? [];
  useEffect(() => {
    transcriptEnd.current?.scrollIntoView({ block: 'nearest' });
  }, [transcript.length]);

  const act = async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    try {
      await action();
      setError(null);
      await load();
      onChanged();
      return true;
    } catch (caught) {
      setError(describeError(caught));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const nameBody = operatorName ? { operatorName } : {};
  const claim = () => act(() => request(session, 'POST', `${path}/claim`, nameBody));
  const resolve = () => act(() => request(session, 'POST', `${path}/resolve`));
  const send = async (event?: FormEvent): Promise<void> => {
    event?.preventDefault();
    const content = draft.trim();
    if (!content) return;
    if (await act(() => request(session, 'POST', `${path}/message`, { content, ...nameBody }))) setDraft('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    // Enter alone adds a line; Ctrl/Cmd+Enter sends.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send();
  };

  if (!detail) {
    return <div className="card escalation">{error ? <p className="error" role="alert">{error}</p> : <p className="muted">Loading…</p>}</div>;
  }

  const { escalation, user, conversation } = detail;
  const identifiers = Object.entries(user?.identifiers ?? {});
  const open = escalation.status !== 'resolved';
  const userName = displayNameOf(escalation.sessionId, user);

  return (
    <article className="card escalation" aria-labelledby="escalation-title">
      <header className="escalation-head">
        <div>
          <button type="button" className="link back" onClick={() => navigate('/escalations')}>← Queue</button>
          <h2 id="escalation-title" ref={heading} tabIndex={-1}>{userName}</h2>
          <p className="muted small">
            <span className={`badge ${escalation.status}`}>{escalation.status}</span>
            {escalation.claimedByName && <> · claimed by {escalation.claimedByName}</>}
            <> · {escalation.reason === 'agent_gave_up' ? 'the agent gave up' : 'the user asked for a person'}</>
            <> · since {formatTime(escalation.createdAt)}</>
          </p>
        </div>
        <div className="escalation-actions">
          {escalation.status === 'pending' && <button type="button" onClick={() => void claim()} disabled={busy}>Claim</button>}
          {open && <button type="button" className="danger" onClick={() => void resolve()} disabled={busy}>Resolve</button>}
        </div>
      </header>
      {error && <p className="error" role="alert">{error}</p>}

      <section className="who" aria-label="End user">
        <dl>
          {user?.userId && (<><dt>User id</dt><dd>{user.userId}</dd></>)}
          {user?.name && (<><dt>Name</dt><dd>{user.name}</dd></>)}
          {identifiers.map(([key, value]) => (<div key={key} className="dl-row"><dt>{key}</dt><dd>{value}</dd></div>))}
          <dt>Session</dt><dd className="mono">{escalation.sessionId}</dd>
          {!user && <><dt>Identity</dt><dd className="muted">not identified by the app</dd></>}
        </dl>
        {escalation.note && <p className="note"><strong>Note:</strong> {escalation.note}</p>}
      </section>

      {conversation.length > 0 && (
        <details className="ai-conversation">
          <summary>Conversation with the AI ({conversation.length} messages)</summary>
          <ol className="messages">
            {conversation.map((message) => (
              <li key={message.id} className={`message ${message.role === 'user' ? 'from-user' : 'from-ai'}`}>
                <span className="who-label">{message.role === 'user' ? 'User' : 'AI'}</span>
                <p className="content">{message.content}</p>
                {message.actions.map((action) => (
                  <p key={action.id} className="action mono">
                    ⚙ {action.type} ({action.status}) {JSON.stringify(action.payload ?? {})}
                  </p>
                ))}
              </li>
            ))}
          </ol>
        </details>
      )}

      <section aria-labelledby="transcript-title">
        <h3 id="transcript-title">Conversation with the operator</h3>
        <ol className="messages transcript" aria-live="polite">
          {transcript.length === 0 && <li className="empty">No messages yet.</li>}
          {transcript.map((message) => (
            <li key={message.id} className={`message ${message.role === 'human_agent' ? 'from-operator' : 'from-user'}`}>
              <span className="who-label">
                {message.role === 'human_agent' ? (message.operatorName ?? 'Operator') : userName} <time className="muted">{formatTime(message.createdAt)}</time>
              </span>
              <p className="content">{message.content}</p>
            </li>
          ))}
          <li ref={transcriptEnd} aria-hidden="true" className="end" />
        </ol>
      </section>

      {open ? (
        <form className="composer" onSubmit={(event) => void send(event)}>
          <label htmlFor="reply" className="visually-hidden">Reply</label>
          <textarea id="reply" rows={3} placeholder={escalation.status === 'pending' ? 'Reply (this claims the escalation)…' : 'Reply…'} value={draft} onChange={(event) => setDraft(event.target.value)} onKeyDown={onKeyDown} />
          <div className="composer-bar">
            <span className="muted small">Ctrl+Enter to send</span>
            <button type="submit" className="primary" disabled={busy || draft.trim() === ''}>Send</button>
          </div>
        </form>
      ) : (
        <p className="muted resolved-note">This escalation is resolved; the conversation is back with the AI.</p>
      )}
    </article>
  );
}
