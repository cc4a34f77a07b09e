import { useState, type FormEvent, type ReactNode } from 'react';
import { describeError } from '../api/api-client';

/**
 * One settings section: its own Save button, a status line announced to
 * screen readers, and the server's message (which names the field) on failure.
 */
export function SectionForm({ title, description, onSave, children, saveLabel = 'Save' }: { title: string; description?: ReactNode; onSave: () => Promise<void>; children: ReactNode; saveLabel?: string }) {
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' } | { kind: 'error'; message: string }>({ kind: 'idle' });
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setState({ kind: 'saving' });
    try {
      await onSave();
      setState({ kind: 'saved' });
    } catch (caught) {
      setState({ kind: 'error', message: describeError(caught) });
    }
  };
  return (
    <form className="card form-grid" onSubmit={(event) => void submit(event)} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {description && <p className="muted full">{description}</p>}
      {children}
      <div className="form-actions">
        <span role="status" className={state.kind === 'error' ? 'error' : 'muted'}>
          {state.kind === 'saved' ? 'Saved.' : state.kind === 'error' ? state.message : ''}
        </span>
        <button type="submit" className="primary" disabled={state.kind === 'saving'}>{state.kind === 'saving' ? 'Saving…' : saveLabel}</button>
      </div>
    </form>
  );
}
