import * as vscode from 'vscode';
import { worstCheck, type DoctorCheck } from '@agentm/core';
import { DOCTOR_URI } from '../views/doctor-document';
import { reportLine } from '../views/doctor-report';
import type { CommandContext } from './context';

/**
 * AgentM: Show storage doctor. The workspace's checks open as a read-only document, one check per line,
 * each whole (and go to the AgentM output channel). When a check warns or fails, a short notification
 * names it and brings the report back. Resolves with the checks.
 */
export async function showDoctor(ctx: CommandContext): Promise<readonly DoctorCheck[]> {
  const checks = await ctx.sources.doctor.run();
  for (const check of checks) ctx.funnel.output.info(`doctor: ${reportLine(check)}`);
  await ctx.doctorDocument.show(checks);
  const worst = worstCheck(checks);
  if (worst && (worst.status === 'warn' || worst.status === 'fail')) {
    const failed = checks.filter((c) => c.status === 'fail').length;
    const warned = checks.filter((c) => c.status === 'warn').length;
    const tag = worst.status === 'fail' ? 'FAIL' : 'WARN';
    ctx.funnel.offer(
      worst.status === 'fail' ? 'error' : 'warning',
      `AgentM doctor: ${worst.id} [${tag}] — ${failed} check(s) failed, ${warned} warned; the report names each fix`,
      [{ title: 'Show report', run: () => vscode.window.showTextDocument(DOCTOR_URI, { preview: false }) }],
    );
  }
  await ctx.storage.refresh();
  return checks;
}
