import { useState } from 'react';
import type { Project } from '../../api/admin-types';
import { SectionForm } from '../../components/section-form';
import type { SaveProject } from '../settings-page';

/** Hop bound, action timeout, the escalate tool and rate limits (a JSON object the server validates). */
export function BehaviourForm({ project, save }: { project: Project; save: SaveProject }) {
  const [maxHops, setMaxHops] = useState(String(project.maxHops));
  const [timeout, setTimeoutSeconds] = useState(project.actionTimeoutSeconds === undefined ? '' : String(project.actionTimeoutSeconds));
  const [escalate, setEscalate] = useState(project.escalateToolEnabled ?? true);
  const [rateLimits, setRateLimits] = useState(JSON.stringify(project.rateLimits, null, 2));
  let rateLimitError: string | null = null;
  let parsedLimits: unknown = null;
  try {
    parsedLimits = JSON.parse(rateLimits || '{}');
    if (typeof parsedLimits !== 'object' || parsedLimits === null || Array.isArray(parsedLimits)) rateLimitError = 'Rate limits must be a JSON object.';
  } catch (error) {
    rateLimitError = `Rate limits are not valid JSON: ${error instanceof Error ? error.message : ''}`;
  }

  const onSave = async (): Promise<void> => {
    if (rateLimitError) throw new Error(rateLimitError);
    const changes: Record<string, unknown> = { maxHops: Number(maxHops), rateLimits: parsedLimits };
    if (project.actionTimeoutSeconds !== undefined) changes['actionTimeoutSeconds'] = Number(timeout);
    if (project.escalateToolEnabled !== undefined) changes['escalateToolEnabled'] = escalate;
    await save(changes);
  };

  return (
    <SectionForm title="Turns and limits" onSave={onSave}>
      <label htmlFor="max-hops">Hops per turn</label>
      <input id="max-hops" type="number" min={1} max={50} value={maxHops} onChange={(event) => setMaxHops(event.target.value)} required />
      <p className="hint">After this many action round trips in one turn, the server answers isDone: true.</p>
      {project.actionTimeoutSeconds !== undefined && (
        <>
          <label htmlFor="action-timeout">Action timeout (seconds)</label>
          <input id="action-timeout" type="number" min={5} max={86400} value={timeout} onChange={(event) => setTimeoutSeconds(event.target.value)} required />
        </>
      )}
      {project.escalateToolEnabled !== undefined && (
        <label className="checkbox full"><input type="checkbox" checked={escalate} onChange={(event) => setEscalate(event.target.checked)} /> Let the AI hand a conversation to a person when it cannot help</label>
      )}
      <label htmlFor="rate-limits">Rate limits (JSON)</label>
      <textarea id="rate-limits" className="mono" rows={4} value={rateLimits} onChange={(event) => setRateLimits(event.target.value)} aria-invalid={rateLimitError !== null} aria-describedby="rate-limits-hint" />
      <p id="rate-limits-hint" className={`hint ${rateLimitError ? 'error' : ''}`}>{rateLimitError ?? 'For example { "messagesPerMinute": 30 }.'}</p>
    </SectionForm>
  );
}
