import { useState } from 'react';
import type { Project } from '../../api/admin-types';
import { SectionForm } from '../../components/section-form';
import type { SaveProject } from '../settings-page';

const lines = (text: string): string[] => text.split('\n').map((line) => line.trim()).filter(Boolean);

/** The owner's suggested prompts (globally and per screen) and the popular-prompt privacy floor. */
export function PromptsForm({ project, save }: { project: Project; save: SaveProject }) {
  const [global, setGlobal] = useState(project.devPrompts.global.join('\n'));
  const [screens, setScreens] = useState(() => Object.entries(project.devPrompts.screens).map(([screen, prompts]) => ({ screen, prompts: prompts.join('\n') })));
  const [floor, setFloor] = useState(String(project.popularPromptFloor));

  const onSave = async (): Promise<void> => {
    const byScreen: Record<string, string[]> = {};
    for (const row of screens) if (row.screen.trim()) byScreen[row.screen.trim()] = lines(row.prompts);
    await save({ devPrompts: { global: lines(global), screens: byScreen }, popularPromptFloor: Number(floor) });
  };
  const update = (index: number, change: Partial<{ screen: string; prompts: string }>): void =>
    setScreens((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <SectionForm title="Suggested prompts" description="Your own prompts come first in GET /agent/popular-prompts; one per line." onSave={onSave}>
      <label htmlFor="prompts-global">When no screen is given</label>
      <textarea id="prompts-global" rows={3} value={global} onChange={(event) => setGlobal(event.target.value)} placeholder={'Track my order\nTalk to a person'} />
      {screens.map((row, index) => (
        <div key={index} className="screen-prompts full">
          <div className="row">
            <label htmlFor={`screen-${index}`}>Screen</label>
            <input id={`screen-${index}`} value={row.screen} onChange={(event) => update(index, { screen: event.target.value })} placeholder="context.currentScreen, e.g. checkout" />
            <button type="button" onClick={() => setScreens((current) => current.filter((_, i) => i !== index))} aria-label={`Remove screen ${row.screen || index + 1}`}>Remove</button>
          </div>
          <label htmlFor={`screen-prompts-${index}`} className="visually-hidden">Prompts for {row.screen || 'this screen'}</label>
          <textarea id={`screen-prompts-${index}`} rows={2} value={row.prompts} onChange={(event) => update(index, { prompts: event.target.value })} />
        </div>
      ))}
      <div className="full"><button type="button" onClick={() => setScreens((current) => [...current, { screen: '', prompts: '' }])}>Add a screen</button></div>
      <label htmlFor="prompt-floor">Privacy floor</label>
      <input id="prompt-floor" type="number" min={1} max={1000} value={floor} onChange={(event) => setFloor(event.target.value)} required />
      <p className="hint">A prompt is shown as popular only once this many different users have asked it.</p>
    </SectionForm>
  );
}
