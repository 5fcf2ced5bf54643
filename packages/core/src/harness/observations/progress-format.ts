import { dominantEol, splitLines } from '../plan/lines.js';
import { OBSERVATION_KINDS, type Observation, type ObservationKind, type ObservationValue } from './observation.js';

/**
 * The progress-file form of an observation: one top-level Markdown list item that starts with its
 * timestamp (so the memory engine reads it as an episode), then Dataview inline fields a person can
 * query in Obsidian, then ` — ` and the text; further text lines are indented two spaces:
 *
 *     - 2026-05-01T12:00:00.123Z [kind:: transition] [step:: build] [attempt:: 0] [actor:: 4242@box] [from:: ready] [to:: running] — ready → running
 *
 * A value that could be misread (a string that looks like a number, contains `]`, a line break or
 * outer spaces) is written as a JSON string with `]` escaped, so the parser reads every value back exactly.
 */
export function formatObservation(o: Observation, eol = '\n'): string {
  const fields: Array<[string, ObservationValue]> = [
    ['kind', o.kind],
    ['step', o.step],
    ['attempt', o.attempt],
    ['actor', o.actor],
    ...Object.entries(o.data),
  ];
  const head = `- ${o.time} ${fields.map(([k, v]) => `[${k}:: ${encodeValue(v)}]`).join(' ')}`;
  if (o.text === '') return head + eol;
  const [first, ...rest] = o.text.split('\n');
  return [`${head} — ${first}`, ...rest.map((line) => (line === '' ? '' : `  ${line}`))].map((l) => l + eol).join('');
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const PLAIN = /^[^\s"\]](?:[^\]\r\n]*[^\s\]])?$/;

function encodeValue(value: ObservationValue): string {
  if (typeof value === 'number') return String(value);
  if (PLAIN.test(value) && !NUMBER.test(value)) return value;
  return JSON.stringify(value).replace(/\]/g, '\\u005d');
}

function decodeValue(raw: string): ObservationValue {
  if (raw.startsWith('"')) return JSON.parse(raw) as string;
  if (NUMBER.test(raw)) return Number(raw);
  return raw;
}

const HEAD = /^- (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) /;
const FIELD = /^\[([a-z0-9_]+):: ([^\]\r\n]*)\]/;

/** Parses the first line of an entry; undefined when it is not an observation. */
function parseHead(line: string): { observation: Omit<Observation, 'text'>; first: string } | undefined {
  const head = HEAD.exec(line);
  if (!head) return undefined;
  let rest = line.slice(head[0].length);
  const values: Record<string, ObservationValue> = {};
  const order: string[] = [];
  for (;;) {
    const field = FIELD.exec(rest);
    if (!field) break;
    try {
      values[field[1]!] = decodeValue(field[2]!);
    } catch {
      return undefined;
    }
    order.push(field[1]!);
    rest = rest.slice(field[0].length);
    if (!rest.startsWith(' [')) break;
    rest = rest.slice(1);
  }
  if (order.slice(0, 4).join(',') !== 'kind,step,attempt,actor') return undefined;
  const { kind, step, attempt, actor } = values;
  if (!OBSERVATION_KINDS.includes(kind as ObservationKind) || typeof attempt !== 'number') return undefined;
  let first: string;
  if (rest === '') first = '';
  else if (rest.startsWith(' — ')) first = rest.slice(3);
  else return undefined;
  const data: Record<string, ObservationValue> = {};
  for (const key of order.slice(4)) data[key] = values[key]!;
  return {
    observation: {
      time: head[1]!,
      kind: kind as ObservationKind,
      step: String(step),
      attempt,
      actor: String(actor),
      data,
    },
    first,
  };
}

function nextNonEmpty(lines: ReadonlyArray<{ readonly text: string }>, from: number): string | undefined {
  for (let k = from; k < lines.length; k++) if (lines[k]!.text !== '') return lines[k]!.text;
  return undefined;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * The observations of a progress file, in file order. Anything else (headings, a person's notes, list
 * items without the observation form, top-level code blocks) is skipped and left alone. An entry's own
 * continuation lines are consumed whole, so text that looks like Markdown (a fence, a list item) inside
 * an entry never confuses the parser.
 */
export function parseProgress(text: string): Observation[] {
  const lines = splitLines(text);
  const out: Observation[] = [];
  let fence: { char: string; length: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.text;
    if (fence) {
      if (new RegExp(`^ {0,3}${fence.char === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`).test(line))
        fence = undefined;
      continue;
    }
    const parsed = parseHead(line);
    if (!parsed) {
      const open = FENCE.exec(line);
      if (open && !(open[1]!.startsWith('`') && open[2]!.includes('`')))
        fence = { char: open[1]![0]!, length: open[1]!.length };
      continue;
    }
    const textLines = [parsed.first];
    // Continuation (only after a first text line): lines indented two spaces, and empty lines followed
    // by more of them.
    let j = i + 1;
    for (; parsed.first !== '' && j < lines.length; j++) {
      const t = lines[j]!.text;
      if (t.startsWith('  ')) textLines.push(t.slice(2));
      else if (t === '' && nextNonEmpty(lines, j + 1)?.startsWith('  ')) textLines.push('');
      else break;
    }
    out.push({ ...parsed.observation, text: textLines.join('\n') });
    i = j - 1;
  }
  return out;
}

/**
 * `progress` with `observations` appended at the end (each as one entry), in the file's own line
 * endings. The existing bytes are kept; a file without a final line break gets one first. An empty file
 * starts with `header` (a Markdown heading line) and a blank line.
 */
export function appendObservations(
  progress: string,
  observations: readonly Observation[],
  header = '# Progress',
): string {
  const eol = dominantEol(splitLines(progress));
  let out = progress;
  if (out === '') out = `${header}${eol}${eol}`;
  else if (!/[\r\n]$/.test(out)) out += eol;
  for (const o of observations) out += formatObservation(o, eol);
  return out;
}
