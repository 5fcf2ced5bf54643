// Pure: the doctor's report as text, one check per line. No vscode import (table-tested).
import { doctorLine, type DoctorCheck } from '@agentm/core';

/**
 * The report: a header with the time and the counts, then each check as core words it (`doctorLine`,
 * what `agentm doctor` prints), one line per check: a line break inside a check (its details) is folded
 * to ` · `, so each check stays one line.
 */
export function doctorReport(checks: readonly DoctorCheck[], when: Date): string {
  const count = (status: DoctorCheck['status']) => checks.filter((c) => c.status === status).length;
  const summary =
    `${checks.length} checks: ${count('ok')} ok, ${count('warn')} warning(s), ${count('fail')} failure(s)` +
    (count('info') > 0 ? `, ${count('info')} hint(s)` : '');
  const header = `AgentM doctor — ${when.toISOString().replace('T', ' ').slice(0, 19)} UTC — ${summary}`;
  return [header, '', ...checks.map(reportLine)].join('\n') + '\n';
}

/** One check as the report shows it: its line, with any details folded onto it. */
export function reportLine(check: DoctorCheck): string {
  return doctorLine(check).replace(/\s*\r?\n\s*/g, ' · ');
}
