import * as vscode from 'vscode';
import type { DoctorRow } from '../sources/types';
import { DOCTOR_URI } from '../views/doctor-document';
import { worstRow } from '../views/doctor-report';
import type { CommandContext } from './context';

/**
 * AgentM: Show storage doctor. The report opens as a read-only document, one check per line, each whole
 * (and goes to the AgentM output channel). When a check warns or fails, a short notification names it
 * and brings the report back. Resolves with the rows.
 */
export async function showDoctor(ctx: CommandContext): Promise<readonly DoctorRow[]> {
  const rows = await ctx.sources.doctor.run();
  for (const row of rows) ctx.funnel.output.info(`doctor: ${row.line}`);
  await ctx.doctorDocument.show(rows);
  const worst = worstRow(rows);
  if (worst && worst.status !== 'ok') {
    const failed = rows.filter((r) => r.status === 'fail').length;
    const warned = rows.filter((r) => r.status === 'warn').length;
    const tag = worst.status === 'fail' ? 'FAIL' : 'WARN';
    ctx.funnel.offer(
      worst.status === 'fail' ? 'error' : 'warning',
      `AgentM doctor: ${worst.check} [${tag}] — ${failed} check(s) failed, ${warned} warned; the report names each fix`,
      [{ title: 'Show report', run: () => vscode.window.showTextDocument(DOCTOR_URI, { preview: false }) }],
    );
  }
  await ctx.storage.refresh();
  return rows;
}
