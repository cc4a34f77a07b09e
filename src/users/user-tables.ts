export interface UserTables {
  users: { id: string; email: string; name: string; password_hash: string; created_at: string };
  workspace_members: { workspace_id: string; user_id: string; role: string; created_at: string };
  user_tokens: { id: string; user_id: string; token_hash: string; created_at: string; expires_at: string; revoked_at: string | null };
}
