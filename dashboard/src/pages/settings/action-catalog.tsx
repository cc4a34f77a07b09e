import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { describeError, isMissingRoute, request } from '../../api/api-client';
import type { ActionType } from '../../api/admin-types';
import type { Session } from '../../api/session-store';
import { checkPayloadSchema } from './json-schema-check';

const exampleSchema = JSON.stringify({ type: 'object', properties: { productId: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } }, required: ['productId'] }, null, 2);

/** The project's own action types, each with the JSON Schema of its payload (navigate is built in). */
export function ActionCatalog({ session, projectId }: { session: Session; projectId: string }) {
  const base = `/admin/projects/${encodeURIComponent(projectId)}/action-types`;
  const [types, setTypes] = useState<ActionType[]>([]);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [schemaText, setSchemaText] = useState(exampleSchema);
  const check = checkPayloadSchema(schemaText);
  const nameProblem = name && !/^[A-Za-z0-9_-]{1,64}$/.test(name) ? 'Use letters, digits, _ and - (up to 64).' : null;

  const load = useCallback(async () => {
    try {
      setTypes((await request<{ actionTypes: ActionType[] }>(session, 'GET', base)).actionTypes);
    } catch (caught) {
      if (isMissingRoute(caught)) setMissing(true);
      else setError(describeError(caught));
    }
  }, [session, base]);

  useEffect(() => {
    void load();
  }, [load]);

  if (missing) return null;

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!check.schema || check.problems.length > 0 || nameProblem) return;
    setError(null);
    try {
      await request(session, 'PUT', `${base}/${encodeURIComponent(name)}`, { description, payloadSchema: check.schema });
      setStatus(`Saved “${name}”.`);
      await load();
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  const edit = (type: ActionType): void => {
    setName(type.type);
    setDescription(type.description);
    setSchemaText(JSON.stringify(type.payloadSchema, null, 2));
    setStatus('');
  };
  const remove = async (type: string): Promise<void> => {
    try {
      await request(session, 'DELETE', `${base}/${encodeURIComponent(type)}`);
      setStatus(`Removed “${type}”.`);
      await load();
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  return (
    <section className="card" aria-labelledby="catalog-title">
      <h2 id="catalog-title">Action catalog</h2>
      <p className="muted">Actions the model may ask your app to run. <code>navigate</code> is built in.</p>
      <ul className="catalog">
        {types.map((type) => (
          <li key={`${type.type}-${type.mcpVersion ?? ''}`} className="row">
            <strong className="mono">{type.type}</strong>
            {type.mcpVersion && <span className="muted small">build {type.mcpVersion}</span>}
            <span className="muted catalog-description">{type.description}</span>
            <button type="button" onClick={() => edit(type)}>Edit</button>
            <button type="button" className="danger" onClick={() => void remove(type.type)} aria-label={`Remove ${type.type}`}>Remove</button>
          </li>
        ))}
        {types.length === 0 && <li className="empty">No custom action types yet.</li>}
      </ul>
      <form className="form-grid nested" onSubmit={(event) => void submit(event)} aria-label="Define an action type">
        <label htmlFor="action-name">Type</label>
        <input id="action-name" value={name} onChange={(event) => setName(event.target.value)} placeholder="add_to_cart" required aria-invalid={nameProblem !== null} />
        {nameProblem && <p className="hint error">{nameProblem}</p>}
        <label htmlFor="action-description">Description</label>
        <input id="action-description" value={description} onChange={(event) => setDescription(event.target.value)} placeholder="Adds a product to the cart" />
        <label htmlFor="action-schema">Payload JSON Schema</label>
        <textarea id="action-schema" className="mono" rows={8} value={schemaText} onChange={(event) => setSchemaText(event.target.value)} aria-invalid={check.problems.length > 0} aria-describedby="action-schema-problems" spellCheck={false} />
        <ul id="action-schema-problems" className="hint schema-problems" aria-live="polite">
          {check.problems.length === 0 ? <li className="ok">Schema looks valid.</li> : check.problems.map((problem) => <li key={problem} className="error">{problem}</li>)}
        </ul>
        <div className="form-actions">
          <span role="status" className="muted">{status}</span>
          {error && <span className="error" role="alert">{error}</span>}
          <button type="submit" className="primary" disabled={check.problems.length > 0 || !name || nameProblem !== null}>Save action type</button>
        </div>
      </form>
    </section>
  );
}
