export interface EndUserRow {
  id: string;
  project_id: string;
  user_id: string;
  name: string | null;
  /** JSON map of string to string. Shown to operators, never sent to the model. */
  identifiers: string;
  created_at: string;
  updated_at: string;
}

export interface EndUserTables {
  end_users: EndUserRow;
}
