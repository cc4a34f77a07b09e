import type { ColumnType } from 'kysely';

export interface JobLeaseRow {
  name: string;
  /** Instance id of the run in progress (or the last one). */
  holder: string | null;
  /** ISO time: until then no other instance may start this job. */
  lease_until: string;
  run_count: ColumnType<number, number | undefined, number>;
  last_started_at: string | null;
  last_finished_at: string | null;
}

export interface JobTables {
  job_leases: JobLeaseRow;
}
