export interface PromptOpeningRow {
  project_id: string;
  /** Normalized text (see prompt-normalization.ts). */
  prompt: string;
  /** context.currentScreen, or '' when the message had none. */
  screen: string;
  session_id: string;
  last_at: string;
}

export interface PopularPromptSnapshotRow {
  project_id: string;
  /** JSON: string[], ranked. */
  global_prompts: string;
  /** JSON: Record<screen, string[]>, ranked. */
  screen_prompts: string;
  computed_at: string;
}

export interface PromptTables {
  prompt_openings: PromptOpeningRow;
  popular_prompt_snapshots: PopularPromptSnapshotRow;
}
