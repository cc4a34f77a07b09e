export interface SessionRow {
  id: string;
  project_id: string;
  /** The app's own id for the end user, when the app passed one. */
  user_id: string | null;
  /** JSON, free-form, as sent. */
  device_info: string | null;
  created_at: string;
  /** Set by DELETE /agent/session/:id; an ended session answers 404. */
  ended_at: string | null;
}

export interface SessionTables {
  sessions: SessionRow;
}
