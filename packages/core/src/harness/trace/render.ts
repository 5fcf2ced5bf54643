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

/** `text` cut into lines of at most `width` characters, at spaces where it can (a word longer than that is split). */
export function wrapText(text: string, width: number): string[] {
  if (width <= 0) return [text];
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/(\s+)/)) {
    if ([...line].length + [...word].length <= width) {
      line += word;
      continue;
    }
    if (line.trim() !== '') out.push(line.trimEnd());
    line = word.trimStart();
    while ([...line].length > width) {
      out.push([...line].slice(0, width).join(''));
      line = [...line].slice(width).join('');
    }
  }
  if (line.trim() !== '' || out.length === 0) out.push(line.trimEnd());
  return out;
}

/**
 * An observation's text, whole: its first line after the event's head, every further line (and, with
 * a width, every wrapped piece) indented beneath it. Nothing is cut: a failure's reason is the point.
 */
function contentLines(head: string, content: string, indent: number, width: number | undefined): string[] {
  const lines = content.replace(/\r\n?/g, '\n').trimEnd().split('\n');
  const room = width === undefined ? 0 : Math.max(20, width - indent);
  const wrap = (line: string, first: number) => (width === undefined ? [line] : wrapText(line, Math.max(20, first)));
  const [firstLine = '', ...rest] = lines;
  const firstPieces = wrap(firstLine, (width ?? 0) - head.length);
  const pad = ' '.repeat(indent);
  return [
    `${head}${firstPieces[0] ?? ''}`,
    ...firstPieces.slice(1).map((p) => pad + p),
    ...rest.flatMap((l) => (width === undefined ? [l] : wrapText(l, room))).map((p) => pad + p),
  ];
}

function body(e: TraceEvent, titles: ReadonlyMap<string, string>, width: number | undefined): string[] {
  const by = e.actor ? ` by ${e.actor}` : '';
  if (e.kind === 'plan') return [`[plan]   ${e.status.padEnd(8)} ${e.mutation || '(unattributed)'}${by}`];
  if (e.kind === 'step') {
    const title = titles.get(e.stepId);
    return [
      `[step]   ${e.status.padEnd(8)} ${e.mutation || '(unattributed)'}${by} -- ${title ? `${e.stepId} (${title})` : e.stepId}`,
    ];
  }
  const tool = e.toolName ? ` tool=${e.toolName}` : '';
  return contentLines(`[obs]    ${e.observationKind.padEnd(8)}${tool}${by} -- ${e.stepId}: `, e.content, 4, width);
}

export function metricsLine(m: TraceMetrics): string {
  return (
    `success=${m.success} steps=${m.stepCount} (done=${m.stepsCompleted} failed=${m.stepsFailed}) toolCalls=${m.toolCalls} ` +
    `tokens=${m.tokens} wall=${goDuration(m.wallClockMs)} observations=${m.observationCount} errors=${m.errorCount}`
  );
}

/**
 * The text timeline (memQL §7.3, adapted): header, metrics, then each event in order. An observation's
 * text is shown whole (memQL cuts it at 80 bytes): its further lines indented beneath it and, with
 * `width` (a terminal's), long lines wrapped.
 */
export function renderTrace(trace: Trace, options: { readonly width?: number | undefined } = {}): string {
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
    for (const e of trace.events) {
      const prefix = `  ${e.at}  `;
      const [first = '', ...more] = body(
        e,
        titles,
        options.width === undefined ? undefined : options.width - prefix.length,
      );
      lines.push(prefix + first, ...more.map((l) => ' '.repeat(prefix.length) + l));
    }
  }
  return `${lines.join('\n')}\n`;
}
