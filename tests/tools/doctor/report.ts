/**
 * The panel doctor's report as text: what was sent (loudly, when anything but reads was), the reads
 * in a table, the findings (each problem with what panelists see and what to change), then the
 * verdict, which names every answer the doctor did not look at.
 */
import { breaksPanelists, type Level, type Report } from './report-types';
import { USER_AGENT, seconds } from './wire';

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

function header(report: Report): string[] {
  const how = `Read through the extension's own API client, as a panelist's browser would (its ${seconds(report.timeoutMs)} time-out, its body limit, no redirect followed; User-Agent ${USER_AGENT}).`;
  if (!report.writeChecks) return [wrap(`${how} Only reads were sent: nothing was redeemed, written or deleted.`, 0)];
  const lines = [wrap(how, 0), '', "WRITE CHECKS ON: run with a test panelist's key only. Sent besides reads:"];
  if (report.sent.length === 0) lines.push('  nothing (see the write-check findings)');
  for (const s of report.sent) lines.push(`  ${wrap(`${s.method} ${s.path}: ${s.what}`, 2)}`);
  return lines;
}

export function formatReport(report: Report): string {
  const out = [`Panel doctor: ${report.baseUrl}`, ...header(report), ''];
  if (report.reads.length > 0) {
    out.push(
      'Reads',
      ...table([
        ['requested', 'status', 'time', 'bytes', 'validators', 'sent back', 'data'],
        ...report.reads.map((r) => [
          `GET ${r.requested}`,
          `${r.status ?? '–'}${r.attempts > 1 ? ` (try ${r.attempts})` : ''}`,
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
  for (const f of report.findings) {
    out.push(`  ${MARK[f.level]}  ${wrap(`${f.topic}: ${f.text}`, 8)}`);
    if (f.level === 'warn' || f.level === 'fail') {
      out.push(`        ${wrap(`Panelists see: ${f.panelists}`, 8)}`, `        ${wrap(`Change: ${f.change}`, 8)}`);
    }
  }
  const warnings = report.findings.filter((f) => f.level === 'warn').length;
  const failures = report.findings.filter((f) => f.level === 'fail').length;
  const also = warnings ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : '';
  out.push(
    '',
    breaksPanelists(report)
      ? `Verdict: ${failures} problem${failures === 1 ? '' : 's'} would break panelists${also}. Fix ${failures === 1 ? 'it' : 'them'} before publishing.`
      : `Verdict: nothing the doctor looked at would break panelists${also}.`,
  );
  if (report.notChecked.length > 0) out.push(wrap(`Not checked: ${report.notChecked.join('; ')}.`, 0));
  return out.join('\n');
}

/** The report for CI (`--json`): the same findings, with the verdict as fields. Format version 1. */
export function jsonReport(report: Report) {
  const count = (level: Level) => report.findings.filter((f) => f.level === level).length;
  return {
    tool: 'panel-doctor',
    format: 1,
    userAgent: USER_AGENT,
    ...report,
    verdict: {
      ran: true,
      breaksPanelists: breaksPanelists(report),
      failures: count('fail'),
      warnings: count('warn'),
    },
  };
}
