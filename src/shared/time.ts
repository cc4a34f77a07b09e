/**
 * Timestamps are stored as ISO-8601 UTC text with millisecond precision in both
 * dialects (see docs/decisions/0002-portable-column-types.md): they compare
 * correctly as strings and need no per-dialect conversion.
 */
export function nowIso(): string {
  // Formatting costs about a microsecond and a busy server asks many times per millisecond.
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

let lastMs = Number.NaN;
let lastIso = '';

export function isoAfter(ms: number, from: Date = new Date()): string {
  return new Date(from.getTime() + ms).toISOString();
}

/** Parses an ISO-8601 timestamp; returns null when it is not one. */
export function parseIso(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
