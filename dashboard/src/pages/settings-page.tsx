import type { Session } from '../api/session-store';
import { Unavailable } from '../components/unavailable';

export function SettingsPage(_props: { session: Session }) {
  return <Unavailable what="Project settings" />;
}
