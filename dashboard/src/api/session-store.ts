/**
 * The signed-in user's token lives in sessionStorage, not localStorage or a cookie:
 * - it is scoped to this tab and gone when the tab closes, so a shared operator
 *   machine does not keep people signed in after they walk away;
 * - it is never sent by the browser on its own (unlike a cookie), so no CSRF;
 * - each tab may work in its own workspace.
 * The server still enforces expiry; an expired token sends the user back to sign-in.
 * The operator display name is not a secret and is kept across tabs in localStorage.
 */
export interface Workspace {
  id: string;
  name: string;
  role: string;
}

export interface User {
  id: string;
  email: string;
  name: string;
}

export interface Session {
  token: string;
  expiresAt: string;
  user: User;
  workspaces: Workspace[];
  workspaceId: string | null;
}

const sessionKey = 'parley.session';
const operatorNameKey = 'parley.operatorName';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(sessionKey);
    if (!raw) return null;
    const session = JSON.parse(raw) as Session;
    if (Date.parse(session.expiresAt) <= Date.now()) {
      sessionStorage.removeItem(sessionKey);
      return null;
    }
    return session;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(sessionKey, JSON.stringify(session));
  else sessionStorage.removeItem(sessionKey);
}

export function loadOperatorName(): string {
  return localStorage.getItem(operatorNameKey) ?? '';
}

export function saveOperatorName(name: string): void {
  localStorage.setItem(operatorNameKey, name);
}
