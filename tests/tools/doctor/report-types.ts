/** What the panel doctor found: a row per read and findings, each with how much it matters. */

/** `fail`: would break panelists (the doctor exits 1); `warn`: works, but worse than it could. */
export type Level = 'ok' | 'info' | 'warn' | 'fail';

/**
 * One cause, told once. A problem (`warn`, `fail`) also says what panelists would see, in the
 * extension's own words where it has some, and what the operator should change.
 */
export type Finding =
  | { level: 'ok' | 'info'; topic: string; text: string }
  | { level: 'warn' | 'fail'; topic: string; text: string; panelists: string; change: string };

export interface ReadRow {
  endpoint: string;
  /** Path and query exactly as requested (a base URL ending in /v1 gives /v1/v1/…). */
  requested: string;
  status: number | null;
  ms: number | null;
  /** Headers and body of the first answer. */
  bytes: number;
  summary: string;
  validators: 'ETag, Last-Modified' | 'ETag' | 'Last-Modified' | 'none';
  /** The status when the validators were sent back at once (304: unchanged, no body); null when not tried. */
  conditional: number | null;
  /** How many times the client sent it (more than 1: a 429 waited out). */
  attempts: number;
}

/** A request other than a read, sent by a write check the operator asked for. */
export interface SentWrite {
  method: string;
  /** Path and query as sent. */
  path: string;
  what: string;
}

export interface Report {
  baseUrl: string;
  /** The extension's own time-out per request, which the doctor keeps. */
  timeoutMs: number;
  /** Whether the operator asked for write checks (a test panelist only). */
  writeChecks: boolean;
  reads: ReadRow[];
  findings: Finding[];
  /** Every request that was not a read, as it left (empty without write checks). */
  sent: SentWrite[];
  /** Answers the doctor did not look at: the verdict names them, so none is passed unseen. */
  notChecked: string[];
}

/** Whether anything found would break panelists. */
export function breaksPanelists(report: Report): boolean {
  return report.findings.some((f) => f.level === 'fail');
}
