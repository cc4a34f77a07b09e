import { useState } from 'react';
import type { Personalization, Project, ThemeSettings } from '../../api/admin-types';
import { SectionForm } from '../../components/section-form';
import type { SaveProject } from '../settings-page';
import { WidgetPreview } from './widget-preview';

type TextField = 'assistantName' | 'chatTitle' | 'welcomeMessage' | 'assistantAvatar' | 'emptyStateIcon' | 'triggerButtonColor' | 'triggerButtonImageUrl' | 'defaultLocale';

const textFields: Array<{ key: TextField; label: string; type?: string; placeholder?: string; multiline?: boolean }> = [
  { key: 'assistantName', label: 'Assistant name', placeholder: 'Sam' },
  { key: 'chatTitle', label: 'Chat title', placeholder: 'Help' },
  { key: 'welcomeMessage', label: 'Welcome message', placeholder: 'Hi! How can I help?', multiline: true },
  { key: 'assistantAvatar', label: 'Avatar image URL', type: 'url', placeholder: 'https://…/avatar.png' },
  { key: 'emptyStateIcon', label: 'Empty-state icon', placeholder: 'icon name or image URL' },
  { key: 'triggerButtonColor', label: 'Launcher button color', placeholder: '#3b4fd8' },
  { key: 'triggerButtonImageUrl', label: 'Launcher button image URL', type: 'url' },
  { key: 'defaultLocale', label: 'Default locale', placeholder: 'en, pt-BR…' },
];

const colorTokens = ['primary', 'background', 'text'] as const;

/** Color inputs need #rrggbb; other CSS colors are kept as text. */
const asHex = (value: string | undefined, fallback: string): string => (value && /^#[0-9a-f]{6}$/i.test(value) ? value : fallback);

export function PersonalizationForm({ project, save }: { project: Project; save: SaveProject }) {
  const [draft, setDraft] = useState<Personalization>(project.personalization);
  const set = <K extends keyof Personalization>(key: K, value: Personalization[K]): void => setDraft((current) => ({ ...current, [key]: value }));
  const setTheme = (theme: Partial<ThemeSettings>): void => setDraft((current) => ({ ...current, theme: { ...current.theme, ...theme } }));
  const setColor = (token: string, value: string): void => {
    const colors = { ...draft.theme.colors };
    if (value.trim()) colors[token] = value.trim();
    else delete colors[token];
    setTheme({ colors });
  };

  // Saving replaces the whole document; GET /agent/personalization changes at once.
  const onSave = async (): Promise<void> => {
    const document: Record<string, unknown> = { poweredByVisible: draft.poweredByVisible, theme: draft.theme };
    for (const field of textFields) document[field.key] = draft[field.key]?.trim() ? draft[field.key]?.trim() : null;
    await save({ personalization: document });
  };

  return (
    <SectionForm title="Personalization" description="How the chat widget looks in your app. The preview follows your edits." onSave={onSave}>
      <div className="personalization full">
        <div className="fields-grid">
          {textFields.map((field) => (
            <div key={field.key} className="field">
              <label htmlFor={`p-${field.key}`}>{field.label}</label>
              {field.multiline ? (
                <textarea id={`p-${field.key}`} rows={2} value={draft[field.key] ?? ''} placeholder={field.placeholder} onChange={(event) => set(field.key, event.target.value)} />
              ) : (
                <input id={`p-${field.key}`} type={field.type ?? 'text'} value={draft[field.key] ?? ''} placeholder={field.placeholder} onChange={(event) => set(field.key, event.target.value)} />
              )}
            </div>
          ))}
          <div className="field">
            <label htmlFor="p-mode">Mode</label>
            <select id="p-mode" value={draft.theme.mode} onChange={(event) => setTheme({ mode: event.target.value as ThemeSettings['mode'] })}>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
              <option value="system">Follow the device</option>
            </select>
          </div>
          {colorTokens.map((token) => (
            <div key={token} className="field">
              <label htmlFor={`p-color-${token}`}>Color: {token}</label>
              <div className="row">
                <input type="color" aria-label={`${token} color picker`} value={asHex(draft.theme.colors[token], token === 'text' ? '#1b1f24' : token === 'background' ? '#ffffff' : '#3b4fd8')} onChange={(event) => setColor(token, event.target.value)} />
                <input id={`p-color-${token}`} className="color-text" value={draft.theme.colors[token] ?? ''} placeholder="default" onChange={(event) => setColor(token, event.target.value)} />
              </div>
            </div>
          ))}
          <div className="field">
            <label className="checkbox"><input type="checkbox" checked={draft.poweredByVisible} onChange={(event) => set('poweredByVisible', event.target.checked)} /> Show “Powered by Parley”</label>
          </div>
        </div>
        <WidgetPreview personalization={draft} />
      </div>
    </SectionForm>
  );
}
