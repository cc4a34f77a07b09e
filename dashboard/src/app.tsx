import { useCallback, useEffect, useState } from 'react';
import { request, setUnauthorizedListener } from './api/api-client';
import { loadSession, saveSession, type Session, type User, type Workspace } from './api/session-store';
import { AnalyticsPage } from './pages/analytics-page';
import { ConsolePage } from './pages/console-page';
import { KeysPage } from './pages/keys-page';
import { SettingsPage } from './pages/settings-page';
import { SignInPage } from './pages/sign-in-page';
import { UsersPage } from './pages/users-page';
import { WebhooksPage } from './pages/webhooks-page';
import { navigate, usePath } from './router';

const sections = [
  { path: '/escalations', label: 'Console' },
  { path: '/settings', label: 'Project settings' },
  { path: '/keys', label: 'API keys' },
  { path: '/users', label: 'Users' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/analytics', label: 'Analytics' },
] as const;

export function App() {
  const [session, setSession] = useState<Session | null>(() => loadSession());
  const [notice, setNotice] = useState<string | null>(null);
  const path = usePath();

  const update = useCallback((next: Session | null) => {
    saveSession(next);
    setSession(next);
  }, []);

  useEffect(() => {
    setUnauthorizedListener(() => {
      update(null);
      setNotice('Your session has expired. Please sign in again.');
    });
  }, [update]);

  // Refresh the workspace list (and check the token) once per page load.
  const token = session?.token;
  useEffect(() => {
    if (!token) return;
    void request<{ user: User; workspaces: Workspace[] }>({ token, workspaceId: null }, 'GET', '/auth/me')
      .then((me) => {
        const current = loadSession();
        if (!current) return;
        const workspaceId = me.workspaces.some((w) => w.id === current.workspaceId) ? current.workspaceId : (me.workspaces[0]?.id ?? null);
        update({ ...current, user: me.user, workspaces: me.workspaces, workspaceId });
      })
      .catch(() => undefined);
  }, [token, update]);

  if (!session) {
    document.title = 'Sign in · Parley';
    return (
      <SignInPage
        notice={notice}
        onSignedIn={(next) => {
          setNotice(null);
          update(next);
          if (!path.startsWith('/escalations') && !sections.some((s) => path.startsWith(s.path))) navigate('/escalations');
        }}
      />
    );
  }

  const signOut = async (): Promise<void> => {
    await request(session, 'POST', '/auth/logout').catch(() => undefined);
    update(null);
    setNotice('You have signed out.');
  };

  const sectionLabel = sections.find((s) => path.startsWith(s.path))?.label ?? 'Console';
  const workspace = session.workspaces.find((w) => w.id === session.workspaceId) ?? null;
  const section = sections.find((s) => path.startsWith(s.path))?.path ?? '/escalations';

  document.title = `${sectionLabel} · Parley`;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="topbar">
        <span className="brand"><span className="logo" aria-hidden="true">◆</span> Parley</span>
        <nav aria-label="Sections" className="sections">
          {sections.map((s) => (
            <a
              key={s.path}
              href={s.path}
              aria-current={section === s.path ? 'page' : undefined}
              onClick={(event) => {
                event.preventDefault();
                navigate(s.path);
              }}
            >
              {s.label}
            </a>
          ))}
        </nav>
        <div className="account">
          <label htmlFor="workspace" className="visually-hidden">Workspace</label>
          <select id="workspace" value={session.workspaceId ?? ''} onChange={(event) => update({ ...session, workspaceId: event.target.value })}>
            {session.workspaces.map((w) => (
              <option key={w.id} value={w.id}>{w.name}</option>
            ))}
          </select>
          <span className="muted user-name" title={session.user.email}>{session.user.name}</span>
          <button type="button" onClick={() => void signOut()}>Sign out</button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {!workspace ? (
          <p className="empty">You are not a member of any workspace yet.</p>
        ) : section === '/settings' ? (
          <SettingsPage key={workspace.id} session={session} />
        ) : section === '/keys' ? (
          <KeysPage key={workspace.id} session={session} />
        ) : section === '/users' ? (
          <UsersPage key={workspace.id} session={session} />
        ) : section === '/analytics' ? (
          <AnalyticsPage key={workspace.id} session={session} />
        ) : section === '/webhooks' ? (
          <WebhooksPage key={workspace.id} session={session} />
        ) : (
          <ConsolePage key={workspace.id} session={session} path={path} />
        )}
      </main>
    </div>
  );
}
