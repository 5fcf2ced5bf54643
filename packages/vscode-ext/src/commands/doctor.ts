import type { DoctorRow } from '../sources/types';
import type { CommandContext } from './context';

const RANK = { ok: 0, warn: 1, fail: 2 } as const;

/**
 * AgentM: Show storage doctor. Every row goes to the AgentM output channel; the notification carries
 * the worst row (which names the fix when something is wrong). Resolves with the rows.
 */
export async function showDoctor(ctx: CommandContext): Promise<readonly DoctorRow[]> {
  const rows = await ctx.sources.doctor.run();
  for (const row of rows) ctx.funnel.output.info(`doctor: ${row.line}`);
  const worst = rows.reduce((a, b) => (RANK[b.status] > RANK[a.status] ? b : a));
  const others = rows.filter((r) => r !== worst).map((r) => r.line);
  const text = `AgentM doctor: ${worst.line}${others.length ? ` · ${others.join(' · ')}` : ''}`;
  ctx.funnel.notify(worst.status === 'fail' ? 'error' : worst.status === 'warn' ? 'warning' : 'info', text);
  await ctx.storage.refresh();
  return rows;
}
