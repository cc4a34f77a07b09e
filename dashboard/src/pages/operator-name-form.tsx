import { useState, type FormEvent } from 'react';

/** The display name end users and other operators see; asked once, kept in localStorage. */
export function OperatorNameForm({ initial, onSave }: { initial: string; onSave: (name: string) => void }) {
  const [name, setName] = useState(initial);
  const trimmed = name.trim();
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (trimmed.length >= 1 && trimmed.length <= 120) onSave(trimmed);
  };
  return (
    <form className="card operator-name" onSubmit={submit}>
      <label htmlFor="operator-name">Your display name (shown to end users)</label>
      <div className="row">
        <input id="operator-name" value={name} maxLength={120} onChange={(event) => setName(event.target.value)} required />
        <button type="submit" className="primary" disabled={trimmed.length === 0}>Save name</button>
      </div>
    </form>
  );
}
