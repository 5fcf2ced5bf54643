/**
 * The bookkeeping among the entries of a progress file, and the human face of what remains. A harness
 * (today's, an older AgentM, agentm, a person by hand) logs every status change — claims, transitions,
 * releases, a step's bare result, a session's breadcrumb — and those keep its books: as memories they
 * are noise that crowds out what the steps found (14 of 20 phase-recall items after one run) and become
 * junk beliefs ("ready → running"). What carries knowledge stays: notes, decisions, errors with their
 * reason, results with a summary — titled by their step and what happened, never `[kind:: …]` syntax.
 *
 * Recognized here (the harness's writer is a layer above, so its form is read rather than imported; a
 * test formats observations with the harness's own writer and checks this reading of them):
 * - today's observation line: `<ISO time> [kind:: K] [step:: S] [attempt:: N] [actor:: A] [f:: v]… — text`;
 *   bookkeeping when a transition, a breadcrumb (`[event:: …]`), a released claim
 *   (`[reason:: claimant_gone]`), or a result, error or note that says only its status;
 * - an older AgentM's bracketed kinds: `<time> [transition] …`, `[claim]`, `[release]`, `[status]`;
 * - any other entry (agentm's dated sections, a person's lines) that says a status and little else:
 *   a status word or arrow (`claimed`, `done`, `→ running`, `Status: blocked`) and at most one other
 *   word (the step's name), once its time, fields, quoted names, actor and attempt are set aside.
 */
import { findTimestamp } from './timestamps.js';

/** What a progress entry is: bookkeeping, or a memory with a human title and text. */
export interface ProgressEntry {
  readonly bookkeeping: boolean;
  /** The entry's first line as a person reads it (its step and what happened; no timestamp or fields). */
  readonly title: string;
  /** The entry's text as a person reads it (the title line, then any further lines). */
  readonly text: string;
}

const OBSERVATION =
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d) \[kind:: ([a-z_]+)\] \[step:: ([^\]\r\n]*)\] \[attempt:: [^\]\r\n]*\] \[actor:: [^\]\r\n]*\]((?: \[[a-z0-9_]+:: [^\]\r\n]*\])*)(?: — ([\s\S]*))?$/;

/** A result head: the harness's status line for a step, and what follows it (a summary, a reason). */
const RESULT_HEAD = /^step "([^"\n]*)" (completed \(\d+ tool call\(s\)\)|dispatch failed|is blocked)(?:: ([\s\S]*))?$/;
const RESULT_STATUS: Readonly<Record<string, string>> = { 'dispatch failed': 'failed', 'is blocked': 'blocked' };

const LEGACY = /^\[(transition|claim|claimed|release|released|status|heartbeat)\]/i;

/** Words that say a status and nothing else. */
const STATUS = new Set(
  (
    'ready running done failed failure blocked cancelled canceled pending claimed claim claims released release ' +
    'releases started start starting finished finish completed complete resumed resume retrying retried skipped ' +
    'queued reopened picked took handed wip todo heartbeat'
  ).split(' '),
);
/** Words that only glue a status line together. */
const GLUE = new Set(
  (
    'step steps plan status state attempt by to from as is was now the a an of on in at and with for it agent ' +
    'worker me i we ok again up over back off moved marked set tool call calls progress'
  ).split(' '),
);

/** An inline field's value as written (a JSON string for values that would be misread). */
function fieldValue(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  try {
    return String(JSON.parse(raw));
  } catch {
    return raw;
  }
}

function firstLine(text: string): string {
  const at = text.indexOf('\n');
  return at < 0 ? text : text.slice(0, at);
}

/** The entry as a person reads it: `title` first, then the lines after the entry's first. */
function entry(bookkeeping: boolean, title: string, rest: string): ProgressEntry {
  const clean = title.trim();
  return { bookkeeping, title: clean, text: rest === '' ? clean : `${clean}\n${rest}` };
}

/** Reads today's observation line (see OBSERVATION); undefined when the entry has another form. */
function readObservation(text: string): ProgressEntry | undefined {
  const head = OBSERVATION.exec(firstLine(text));
  if (!head) return undefined;
  const [, kind, rawStep, fields, said = ''] = head;
  const step = fieldValue(rawStep!.trim());
  const rest = text.slice(firstLine(text).length + 1);
  const stamped = /\[(event|reason):: ("?)(pre_compact|claimant_gone)\2\]/.test(fields ?? '');
  if (kind === 'transition' || stamped) return entry(true, said || kind!, rest);
  const named = step === '' || step.startsWith('plan:') ? '' : step;
  const result = RESULT_HEAD.exec(said);
  if (result) {
    const status = RESULT_STATUS[result[2]!] ?? 'done';
    const summary = result[3]?.trim() ?? '';
    const head = named === '' ? status : `${named} ${status}`;
    return entry(summary === '' && rest.trim() === '', summary === '' ? head : `${head}: ${summary}`, rest);
  }
  if (said.trim() === '' && rest.trim() === '') return entry(true, kind!, '');
  return entry(false, named === '' ? said : `${named}: ${said}`, rest);
}

/** A line without its heading marks and leading timestamp (and the dash or colon after it). */
function unstamped(line: string): string {
  const bare = line.replace(/^#{1,6}\s+/, '');
  const stamp = findTimestamp(bare);
  return (stamp && stamp.length > 0 ? bare.slice(stamp.length) : bare).replace(/^[\s:—–-]+/, '').trim();
}

/** How a line reads once its time, fields, quoted names, actor and attempt are set aside. */
function statusWords(line: string): { status: boolean; other: number; words: number } {
  let rest = unstamped(line)
    .replace(/\[[a-z0-9_]+::[^\]]*\]/gi, ' ')
    .replace(/`[^`]*`|"[^"]*"|“[^”]*”|'[^']*'/g, ' ')
    .replace(/\b\d+@\S+/g, ' ')
    .replace(/\(\d+ tool call\(s\)\)|\battempt \d+/gi, ' ')
    .replace(/\b\d{1,2}:\d{2}(?::\d{2})?\b/g, ' ');
  const arrow = /→|->|=>|⇒/.test(rest);
  rest = rest.replace(/→|->|=>|⇒/g, ' ');
  const words = rest.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_.-]*/gu) ?? [];
  let status = arrow;
  let other = 0;
  for (const w of words) {
    const bare = w.replace(/[.-]+$/, '');
    if (STATUS.has(bare)) status = true;
    else if (!GLUE.has(bare)) other++;
  }
  return { status, other, words: words.length };
}

/**
 * What a progress entry (a list item's text, its marker removed; or a section with its heading) is:
 * the harness's bookkeeping, or a memory — with its human title and text.
 */
export function readProgressEntry(text: string): ProgressEntry {
  const observed = readObservation(text);
  if (observed) return observed;
  const lines = text.split('\n');
  // The title: the first line that says something once its heading marks and time are set aside.
  let at = lines.findIndex((l) => unstamped(l) !== '');
  if (at < 0) at = 0;
  const title = unstamped(lines[at]!) || lines[at]!.trim();
  const rest = lines
    .slice(at + 1)
    .join('\n')
    .trim();
  if (LEGACY.test(title)) return entry(true, title, rest);
  // An older AgentM's kind tag (`[note] …`, `[decision] …`) is syntax, not part of what was said.
  const said0 = title.replace(/^\[[a-z_]+\]\s*/i, '') || title;
  // A status and at most one other word (the step's name) over the whole entry: bookkeeping.
  const said = lines.filter((l) => unstamped(l) !== '');
  if (said.length > 0 && said.length <= 3) {
    const read = said.map(statusWords);
    const other = read.reduce((n, r) => n + r.other, 0);
    if (read.some((r) => r.status) && other <= 1 && read.every((r) => r.words <= 8)) return entry(true, title, rest);
  }
  return entry(false, said0, rest);
}

/** Whether an entry's text is the harness's bookkeeping (see readProgressEntry). */
export function isHarnessBookkeeping(entryText: string): boolean {
  return readProgressEntry(entryText).bookkeeping;
}
