import { useCallback, useState } from 'react';
import { request } from '../api/api-client';
import { useAdminLoad } from '../api/use-admin-load';
import type { Project } from '../api/admin-types';
import type { Session } from '../api/session-store';
import { ProjectPicker } from '../components/project-picker';
import { Unavailable } from '../components/unavailable';
import { ActionCatalog } from './settings/action-catalog';
import { BehaviourForm } from './settings/behaviour-form';
import { ModelForm } from './settings/model-form';
import { PersonalizationForm } from './settings/personalization-form';
import { PromptsForm } from './settings/prompts-form';

export type SaveProject = (changes: Record<string, unknown>) => Promise<void>;

export function SettingsPage({ session }: { session: Session }) {
  const [projects, setProjects] = useState<Project[]>([]);
  const [projectId, setProjectId] = useState('');
  const { missing, error } = useAdminLoad(
    useCallback(async () => {
      const data = await request<{ projects: Project[] }>(session, 'GET', '/admin/projects');
      setProjects(data.projects);
      setProjectId((current) => (data.projects.some((p) => p.id === current) ? current : (data.projects[0]?.id ?? '')));
    }, [session]),
  );

  if (missing) return <Unavailable what="Project settings" />;
  const project = projects.find((p) => p.id === projectId);

  // Each section sends only its own fields (PATCH); the answer replaces the local copy.
  const save: SaveProject = async (changes) => {
    const updated = await request<Project>(session, 'PATCH', `/admin/projects/${encodeURIComponent(projectId)}`, changes);
    setProjects((current) => current.map((p) => (p.id === updated.id ? updated : p)));
  };

  return (
    <div className="page">
      <div className="row page-head">
        <h1>Project settings</h1>
        <ProjectPicker id="settings-project" projects={projects} value={projectId} onChange={setProjectId} />
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {project && (
        <div key={project.id} className="settings-sections">
          <p className="muted">Project <strong>{project.name}</strong> <span className="mono">{project.id}</span></p>
          <ModelForm project={project} save={save} />
          <PersonalizationForm project={project} save={save} />
          <PromptsForm project={project} save={save} />
          <ActionCatalog session={session} projectId={project.id} />
          <BehaviourForm project={project} save={save} />
        </div>
      )}
    </div>
  );
}
