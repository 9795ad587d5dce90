/** What the panel doctor found: a row per read and findings, each with how much it matters. */

/** `fail`: would break panelists (the doctor exits 1); `warn`: works, but worse than it could. */
export type Level = 'ok' | 'info' | 'warn' | 'fail';

export interface Finding {
  level: Level;
  topic: string;
  text: string;
}

export interface ReadRow {
  endpoint: string;
  status: number | null;
  ms: number | null;
  /** Headers and body of the first answer. */
  bytes: number;
  summary: string;
  validators: 'ETag, Last-Modified' | 'ETag' | 'Last-Modified' | 'none';
  /** The status when the validators were sent back at once (304: unchanged, no body); null when not tried. */
  conditional: number | null;
}

export interface Report {
  baseUrl: string;
  reads: ReadRow[];
  findings: Finding[];
}

/** Whether anything found would break panelists. */
export function breaksPanelists(report: Report): boolean {
  return report.findings.some((f) => f.level === 'fail');
}
