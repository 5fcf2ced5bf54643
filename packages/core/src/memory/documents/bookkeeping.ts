/**
 * The harness's own bookkeeping among the entries of a progress file. The harness logs every status
 * change (`[kind:: transition]`: claims, results, releases, the plan's status) and a head line for
 * every result; those keep its books, and as memories they were noise that crowded out what the
 * steps found (14 of 20 phase-recall items after one run) and became junk beliefs ("ready → running").
 * What carries knowledge stays: notes, decisions, errors with their reason, results with a summary.
 *
 * The entry form is the harness's observation line (harness/observations/progress-format.ts, a layer
 * above this one, so the form is recognized here rather than imported); a test formats observations
 * with the harness's own writer and checks this reading of them.
 */

/** `<ISO time> [kind:: <kind>] [step:: …] [attempt:: …] [actor:: …]` then further `[field:: value]`s. */
const HEAD =
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d) \[kind:: ([a-z_]+)\] \[step:: [^\]\r\n]*\] \[attempt:: [^\]\r\n]*\] \[actor:: [^\]\r\n]*\]((?: \[[a-z0-9_]+:: [^\]\r\n]*\])*)(?: — ([\s\S]*))?$/;

/** A result head with nothing after it: the harness's status line for a step, and no summary or reason. */
const BARE_RESULT = /^step "[^"\n]*" (?:completed \(\d+ tool call\(s\)\)|dispatch failed|is blocked)$/;

/**
 * Whether an episode's text (a progress list item, its marker removed) is the harness's bookkeeping:
 * a transition, or a result/error/note that says only its status.
 */
export function isHarnessBookkeeping(entryText: string): boolean {
  const head = HEAD.exec(entryText);
  if (!head) return false;
  const kind = head[1]!;
  if (kind === 'transition') return true;
  const text = (head[3] ?? '').trim();
  return (kind === 'tool_result' || kind === 'error' || kind === 'note') && (text === '' || BARE_RESULT.test(text));
}
