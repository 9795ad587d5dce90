/** Timestamps in the interface's format: `YYYY-MM-DDTHH:MM:SS`, UTC, no zone designator. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19);
}
