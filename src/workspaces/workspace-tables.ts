export interface WorkspaceTables {
  workspaces: { id: string; name: string; created_at: string };
}
