/** The panel doctor's report as text: the reads in a table, then the findings, then the verdict. */
import { breaksPanelists, type Level, type Report } from './report-types';

const WIDTH = 100;
const MARK: Record<Level, string> = { ok: 'ok  ', info: 'info', warn: 'WARN', fail: 'FAIL' };

function wrap(text: string, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => `  ${r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`.trimEnd());
}

export function formatReport(report: Report): string {
  const out = [
    `Panel doctor: ${report.baseUrl}`,
    wrap("Read through the extension's own API client, as a panelist's browser would; nothing was redeemed, written or deleted.", 0),
    '',
  ];
  if (report.reads.length > 0) {
    out.push(
      'Reads',
      ...table([
        ['endpoint', 'status', 'time', 'bytes', 'validators', 'sent back', 'data'],
        ...report.reads.map((r) => [
          `GET ${r.endpoint}`,
          String(r.status ?? '–'),
          r.ms === null ? '–' : `${Math.round(r.ms)} ms`,
          r.bytes.toLocaleString('en'),
          r.validators,
          r.conditional === null ? '–' : String(r.conditional),
          r.summary.length > 60 ? `${r.summary.slice(0, 59)}…` : r.summary,
        ]),
      ]),
      '',
    );
  }
  out.push('Findings');
  for (const f of report.findings) out.push(`  ${MARK[f.level]}  ${wrap(`${f.topic}: ${f.text}`, 8)}`);
  const warnings = report.findings.filter((f) => f.level === 'warn').length;
  const failures = report.findings.filter((f) => f.level === 'fail').length;
  const also = warnings ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : '';
  out.push(
    '',
    breaksPanelists(report)
      ? `Verdict: ${failures} problem${failures === 1 ? '' : 's'} would break panelists${also}. Fix ${failures === 1 ? 'it' : 'them'} before publishing.`
      : `Verdict: nothing here would break panelists${also}.`,
  );
  return out.join('\n');
}
