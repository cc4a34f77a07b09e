import { useEffect, useState } from 'react';
import { describeError, isMissingRoute, request } from '../api/api-client';
import type { Project } from '../api/admin-types';
import type { Session } from '../api/session-store';
import { ProjectPicker } from '../components/project-picker';
import { Unavailable } from '../components/unavailable';
import { formatDuration } from '../format';

interface Duration {
  count: number;
  medianSeconds: number | null;
  averageSeconds: number | null;
}

interface Analytics {
  days: Array<{ date: string; conversations: number; escalations: number }>;
  totals: { conversations: number; escalations: number; escalationRate: number | null };
  timeToFirstReply: Duration;
  resolutionTime: Duration;
  topPrompts: Array<{ prompt: string; conversations: number }>;
}

const seconds = (value: number | null): string => (value === null ? '—' : value < 60 ? `${Math.round(value)} s` : formatDuration(value * 1000));

/** Bars per day; the table beside it carries the same numbers for screen readers. */
function DailyChart({ days }: { days: Analytics['days'] }) {
  const max = Math.max(1, ...days.map((day) => day.conversations));
  const width = 640;
  const height = 160;
  const slot = width / days.length;
  const bar = Math.max(2, slot * 0.7);
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height + 18}`} role="img" aria-label={`Conversations per day, highest ${max}`} preserveAspectRatio="none">
        {days.map((day, index) => {
          const total = (day.conversations / max) * height;
          const escalated = (Math.min(day.escalations, day.conversations) / max) * height;
          const x = index * slot + (slot - bar) / 2;
          return (
            <g key={day.date}>
              <title>{`${day.date}: ${day.conversations} conversations, ${day.escalations} escalated`}</title>
              <rect x={x} y={height - total} width={bar} height={total} className="bar-total" />
              <rect x={x} y={height - escalated} width={bar} height={escalated} className="bar-escalated" />
            </g>
          );
        })}
        <line x1="0" y1={height} x2={width} y2={height} className="axis" />
        <text x="0" y={height + 14} className="axis-label">{days[0]?.date}</text>
        <text x={width} y={height + 14} textAnchor="end" className="axis-label">{days.at(-1)?.date}</text>
      </svg>
      <figcaption className="legend small">
        <span className="swatch total" aria-hidden="true" /> conversations <span className="swatch escalated" aria-hidden="true" /> escalated
      </figcaption>
      <table className="visually-hidden">
        <caption>Conversations and escalations per day</caption>
        <thead><tr><th scope="col">Day</th><th scope="col">Conversations</th><th scope="col">Escalations</th></tr></thead>
        <tbody>{days.map((day) => (<tr key={day.date}><td>{day.date}</td><td>{day.conversations}</td><td>{day.escalations}</td></tr>))}</tbody>
      </table>
    </figure>
  );
}

export function AnalyticsPage({ session }: { session: Session }) {
  const [projects, setProjects] = useState<Project[]>([]);
  const [projectId, setProjectId] = useState('');
  const [days, setDays] = useState(30);
  const [data, setData] = useState<Analytics | null>(null);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    request<{ projects: Project[] }>(session, 'GET', '/admin/projects').then((result) => setProjects(result.projects)).catch(() => undefined);
  }, [session]);

  useEffect(() => {
    const query = `/admin/analytics?days=${days}${projectId ? `&projectId=${encodeURIComponent(projectId)}` : ''}`;
    request<Analytics>(session, 'GET', query)
      .then((result) => {
        setData(result);
        setError(null);
      })
      .catch((caught: unknown) => (isMissingRoute(caught) ? setMissing(true) : setError(describeError(caught))));
  }, [session, projectId, days]);

  if (missing) return <Unavailable what="Analytics" />;
  const topMax = Math.max(1, ...(data?.topPrompts.map((p) => p.conversations) ?? []));

  return (
    <div className="page">
      <div className="row page-head">
        <h1>Analytics</h1>
        <div className="row">
          <ProjectPicker id="analytics-project" projects={projects} value={projectId} onChange={setProjectId} allLabel="All projects" />
          <label htmlFor="analytics-days" className="visually-hidden">Period</label>
          <select id="analytics-days" value={days} onChange={(event) => setDays(Number(event.target.value))}>
            <option value={7}>Last 7 days</option>
            <option value={30}>Last 30 days</option>
            <option value={90}>Last 90 days</option>
          </select>
        </div>
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {data && (
        <>
          <div className="tiles">
            <div className="card tile"><span className="tile-label">Conversations</span><strong data-testid="total-conversations">{data.totals.conversations}</strong></div>
            <div className="card tile"><span className="tile-label">Escalation rate</span><strong>{data.totals.escalationRate === null ? '—' : `${Math.round(data.totals.escalationRate * 100)} %`}</strong><span className="muted small">{data.totals.escalations} escalations</span></div>
            <div className="card tile"><span className="tile-label">First operator reply (median)</span><strong>{seconds(data.timeToFirstReply.medianSeconds)}</strong><span className="muted small">{data.timeToFirstReply.count} answered</span></div>
            <div className="card tile"><span className="tile-label">Resolution time (median)</span><strong>{seconds(data.resolutionTime.medianSeconds)}</strong><span className="muted small">{data.resolutionTime.count} resolved by operators</span></div>
          </div>
          <section className="card" aria-labelledby="daily-title">
            <h2 id="daily-title">Conversations per day</h2>
            <DailyChart days={data.days} />
          </section>
          <section className="card" aria-labelledby="prompts-title">
            <h2 id="prompts-title">Top prompts</h2>
            <p className="muted small">Opening messages asked in at least as many conversations as the project's privacy floor.</p>
            <ol className="top-prompts">
              {data.topPrompts.map((prompt) => (
                <li key={prompt.prompt}>
                  <span className="prompt-text">{prompt.prompt}</span>
                  <span className="prompt-bar" style={{ width: `${(prompt.conversations / topMax) * 100}%` }} aria-hidden="true" />
                  <span className="muted small">{prompt.conversations}</span>
                </li>
              ))}
              {data.topPrompts.length === 0 && <li className="empty">None above the privacy floor yet.</li>}
            </ol>
          </section>
        </>
      )}
    </div>
  );
}
