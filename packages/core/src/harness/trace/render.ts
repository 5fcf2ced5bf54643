import { computeMetrics, type TraceMetrics } from './metrics.js';
import type { Trace, TraceEvent } from './trace.js';

/** A duration the way Go prints one (rounded to ms): `0s`, `250ms`, `10s`, `1.5s`, `1m30s`, `1h0m0s`. */
export function goDuration(ms: number): string {
  const total = Math.round(ms);
  if (total === 0) return '0s';
  const sign = total < 0 ? '-' : '';
  const abs = Math.abs(total);
  if (abs < 1000) return `${sign}${abs}ms`;
  const h = Math.floor(abs / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const sMs = abs % 60_000;
  const s = `${Math.floor(sMs / 1000)}${
    sMs % 1000
      ? `.${String(sMs % 1000)
          .padStart(3, '0')
          .replace(/0+$/, '')}`
      : ''
  }s`;
  return sign + (h > 0 ? `${h}h${m}m${s}` : m > 0 ? `${m}m${s}` : s);
}

/** The first `max` UTF-8 bytes of a one-line text, cut at a character boundary, `…` when cut. */
function cutBytes(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (Buffer.byteLength(one, 'utf8') <= max) return one;
  let out = '';
  for (const ch of one) {
    if (Buffer.byteLength(out + ch, 'utf8') > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

function body(e: TraceEvent, titles: ReadonlyMap<string, string>): string {
  const by = e.actor ? ` by ${e.actor}` : '';
  if (e.kind === 'plan') return `[plan]   ${e.status.padEnd(8)} ${e.mutation || '(unattributed)'}${by}`;
  if (e.kind === 'step') {
    const title = titles.get(e.stepId);
    return `[step]   ${e.status.padEnd(8)} ${e.mutation || '(unattributed)'}${by} -- ${title ? `${e.stepId} (${title})` : e.stepId}`;
  }
  const tool = e.toolName ? ` tool=${e.toolName}` : '';
  return `[obs]    ${e.observationKind.padEnd(8)}${tool}${by} -- ${e.stepId}: ${cutBytes(e.content, 80)}`;
}

export function metricsLine(m: TraceMetrics): string {
  return (
    `success=${m.success} steps=${m.stepCount} (done=${m.stepsCompleted} failed=${m.stepsFailed}) toolCalls=${m.toolCalls} ` +
    `tokens=${m.tokens} wall=${goDuration(m.wallClockMs)} observations=${m.observationCount} errors=${m.errorCount}`
  );
}

/** The text timeline (memQL §7.3, adapted): header, metrics, then one line per event in order. */
export function renderTrace(trace: Trace): string {
  const lines = [`Plan ${trace.plan}`];
  if (trace.goal) lines.push(`  goal:   ${trace.goal}`);
  lines.push(`  status: ${trace.finalStatus || '(unknown)'}`, `  metrics: ${metricsLine(computeMetrics(trace))}`);
  if (trace.steps.length > 0) {
    lines.push('', 'Steps:');
    for (const s of trace.steps) lines.push(`  ${s.finalStatus.padEnd(9)} ${s.id}${s.title ? ` (${s.title})` : ''}`);
  }
  if (trace.events.length === 0) {
    lines.push('', '  (no timeline events -- plan not found or no activity)');
  } else {
    const titles = new Map(trace.steps.map((s) => [s.id, s.title]));
    lines.push('', 'Timeline:');
    for (const e of trace.events) lines.push(`  ${e.at}  ${body(e, titles)}`);
  }
  return `${lines.join('\n')}\n`;
}
