import { useState, type FormEvent } from 'react';
import { describeError, request } from '../api/api-client';
import type { Session, User, Workspace } from '../api/session-store';

interface LoginData {
  token: string;
  expiresAt: string;
  user: User;
  workspaces: Workspace[];
}

export function SignInPage({ notice, onSignedIn }: { notice: string | null; onSignedIn: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const data = await request<LoginData>(null, 'POST', '/auth/login', { email: email.trim(), password });
      // The password is dropped from memory as soon as it has been used.
      setPassword('');
      onSignedIn({ ...data, workspaceId: data.workspaces[0]?.id ?? null });
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <form className="card sign-in-card" onSubmit={(event) => void submit(event)} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">
          <span className="logo" aria-hidden="true">◆</span> Parley
        </h1>
        <p className="muted">Sign in to the operator console and project settings.</p>
        {notice && <p className="notice" role="status">{notice}</p>}
        <label htmlFor="email">Email</label>
        <input id="email" type="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} autoFocus />
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
        {error && <p className="error" role="alert">{error}</p>}
        <button type="submit" className="primary" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}
