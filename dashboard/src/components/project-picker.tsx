/** The project select of a page head. Without `allLabel` it shows only when there is a choice to make. */
export function ProjectPicker({ id, projects, value, onChange, allLabel }: {
  id: string;
  projects: ReadonlyArray<{ id: string; name: string }>;
  value: string;
  onChange: (projectId: string) => void;
  /** Adds a first option with the value '' (e.g. "All projects"). */
  allLabel?: string;
}) {
  if (allLabel === undefined && projects.length <= 1) return null;
  return (
    <>
      <label htmlFor={id} className="visually-hidden">Project</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        {projects.map((p) => (<option key={p.id} value={p.id}>{p.name}</option>))}
      </select>
    </>
  );
}
