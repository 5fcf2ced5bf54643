// Pure: the doctor's report as text, one check per line. No vscode import (table-tested).
import type { DoctorRow } from '../sources/types';

export const STATUS_RANK = { ok: 0, warn: 1, fail: 2 } as const;

/** The row that matters most: the first failure, else the first warning, else the first row. */
export function worstRow(rows: readonly DoctorRow[]): DoctorRow | undefined {
  return rows.reduce<DoctorRow | undefined>(
    (a, b) => (!a || STATUS_RANK[b.status] > STATUS_RANK[a.status] ? b : a),
    undefined,
  );
}

/**
 * The report: a header with the time and the counts, then one line per check exactly as the doctor
 * words it (a line break inside a check is folded to a space, so each check stays one line).
 */
export function doctorReport(rows: readonly DoctorRow[], when: Date): string {
  const count = (status: DoctorRow['status']) => rows.filter((r) => r.status === status).length;
  const summary = `${rows.length} checks: ${count('ok')} ok, ${count('warn')} warning(s), ${count('fail')} failure(s)`;
  const header = `AgentM doctor — ${when.toISOString().replace('T', ' ').slice(0, 19)} UTC — ${summary}`;
  return [header, '', ...rows.map((r) => r.line.replace(/\s*\r?\n\s*/g, ' '))].join('\n') + '\n';
}
