import { useState } from 'react';
import type { Project } from '../../api/admin-types';
import { SectionForm } from '../../components/section-form';
import type { SaveProject } from '../settings-page';

const providers = [
  { value: 'demo', label: 'Demo (offline, no credentials)' },
  { value: 'openai', label: 'OpenAI' },
  { value: 'anthropic', label: 'Anthropic' },
  { value: 'openai-compatible', label: 'OpenAI-compatible server (Ollama, vLLM…)' },
];

function splitModel(model: string): { provider: string; name: string } {
  const colon = model.indexOf(':');
  return colon === -1 ? { provider: model, name: '' } : { provider: model.slice(0, colon), name: model.slice(colon + 1) };
}

/** Model and persona. The API key and the persona prompt are write-only: never shown, only replaced or cleared. */
export function ModelForm({ project, save }: { project: Project; save: SaveProject }) {
  const initial = splitModel(project.model);
  const [provider, setProvider] = useState(initial.provider);
  const [name, setName] = useState(initial.name);
  const [baseUrl, setBaseUrl] = useState(project.modelBaseUrl ?? '');
  const [apiKey, setApiKey] = useState('');
  const [clearKey, setClearKey] = useState(false);
  const [persona, setPersona] = useState('');
  const [clearPersona, setClearPersona] = useState(false);

  const onSave = async (): Promise<void> => {
    const changes: Record<string, unknown> = { model: `${provider}:${name.trim()}`, modelBaseUrl: provider === 'openai-compatible' && baseUrl.trim() ? baseUrl.trim() : null };
    if (clearKey) changes['modelApiKey'] = null;
    else if (apiKey.trim()) changes['modelApiKey'] = apiKey.trim();
    if (clearPersona) changes['personaPrompt'] = null;
    else if (persona.trim()) changes['personaPrompt'] = persona;
    await save(changes);
    setApiKey('');
    setPersona('');
    setClearKey(false);
    setClearPersona(false);
  };

  return (
    <SectionForm title="Model and persona" onSave={onSave}>
      <label htmlFor="model-provider">Provider</label>
      <select id="model-provider" value={provider} onChange={(event) => setProvider(event.target.value)}>
        {providers.map((p) => (<option key={p.value} value={p.value}>{p.label}</option>))}
        {!providers.some((p) => p.value === provider) && <option value={provider}>{provider}</option>}
      </select>
      <label htmlFor="model-name">Model</label>
      <input id="model-name" value={name} onChange={(event) => setName(event.target.value)} placeholder={provider === 'demo' ? 'demo' : 'e.g. gpt-4o-mini'} required />
      {provider === 'openai-compatible' && (
        <>
          <label htmlFor="model-base-url">Base URL</label>
          <input id="model-base-url" type="url" value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} placeholder="http://127.0.0.1:11434/v1" required />
        </>
      )}
      <label htmlFor="model-api-key">API key</label>
      <input id="model-api-key" type="password" autoComplete="off" value={apiKey} disabled={clearKey} onChange={(event) => setApiKey(event.target.value)} placeholder={project.modelApiKeySet ? 'A key is set; type a new one to replace it' : 'Not set (the server-wide key is used, if any)'} />
      {project.modelApiKeySet && (
        <label className="checkbox hint"><input type="checkbox" checked={clearKey} onChange={(event) => setClearKey(event.target.checked)} /> Remove the stored key</label>
      )}
      <label htmlFor="persona-prompt">Persona prompt</label>
      <textarea id="persona-prompt" rows={4} value={persona} disabled={clearPersona} onChange={(event) => setPersona(event.target.value)} placeholder={project.personaPromptSet ? 'A persona prompt is set. It is write-only: type a new one to replace it.' : 'How the assistant should behave, e.g. “You are Sam, a cheerful guide for Acme Bank…”'} />
      <p className="hint">Sent to the model only; never returned to apps or shown here again.</p>
      {project.personaPromptSet && (
        <label className="checkbox hint"><input type="checkbox" checked={clearPersona} onChange={(event) => setClearPersona(event.target.checked)} /> Remove the persona prompt</label>
      )}
    </SectionForm>
  );
}
