export type KeyScope = 'sdk' | 'operator';

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  /** Set for sdk keys, null for operator keys (they span the workspace). */
  project_id: string | null;
  name: string;
  scope: KeyScope;
  /** The first characters of the key, shown in lists so a key can be recognised. */
  prefix: string;
  /** SHA-256 of the whole key; the key itself is never stored. */
  key_hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface ApiKeyTables {
  api_keys: ApiKeyRow;
}
