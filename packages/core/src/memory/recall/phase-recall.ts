import { CHARS_PER_TOKEN, normalizePhase } from './budget.js';
import { kindWeight, PHASE_KIND_WEIGHTS } from './phases.js';

/** A memory offered to phase recall: its recall score and the body to show. */
export interface PhaseCandidate {
  readonly id: string;
  readonly locator: string;
  readonly title: string;
  readonly kind: string;
  readonly body: string;
  readonly score: number;
  readonly alwaysLoad: boolean;
  readonly updatedMs: number;
}

export interface PhaseRecallInput {
  readonly phase: string | undefined;
  readonly project?: string | undefined;
  readonly candidates: readonly PhaseCandidate[];
  /** Token budget (≈ 4 characters per token); see `phaseBudget`. */
  readonly budgetTokens: number;
  /** Per phase, per kind weights (default PHASE_KIND_WEIGHTS). */
  readonly weights?: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

export interface PhaseRecallOutput {
  /** `""` when there is nothing to recall (the seam's empty degrade). */
  readonly markdown: string;
  /** Ids rendered, in order. */
  readonly included: readonly string[];
  /** Whether some candidate was cut or left out for the budget. */
  readonly truncated: boolean;
}

/** Bodies are not cut shorter than this; below it the item is left out instead. */
const MIN_BODY_CHARS = 120;

/**
 * Renders phase recall as Markdown within the budget (never longer). Pure. Always-load notes come
 * first and are included before anything else (their bodies cut to fit if they must; only a budget
 * too small for their headings leaves some out); then the other candidates ordered by
 * score × the phase's weight for their kind (weight 0 leaves a kind out), each whole while it fits,
 * the first one that does not fit cut to the remaining budget, then nothing more.
 */
export function renderPhaseRecall(input: PhaseRecallInput): PhaseRecallOutput {
  const phase = normalizePhase(input.phase);
  const weights = input.weights ?? PHASE_KIND_WEIGHTS;
  const always = input.candidates
    .filter((c) => c.alwaysLoad)
    .sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
  const ranked = input.candidates
    .filter((c) => !c.alwaysLoad)
    .map((c) => ({ c, w: c.score * kindWeight(phase, c.kind, weights) }))
    .filter((x) => kindWeight(phase, x.c.kind, weights) > 0)
    .sort((a, b) => b.w - a.w || b.c.updatedMs - a.c.updatedMs || a.c.id.localeCompare(b.c.id))
    .map((x) => x.c);
  if (always.length === 0 && ranked.length === 0) return { markdown: '', included: [], truncated: false };

  const budget = Math.max(0, Math.floor(input.budgetTokens * CHARS_PER_TOKEN));
  const header = `## Recall · ${phase}${input.project ? ` · ${input.project}` : ''}\n\n`;
  if (header.length > budget) return { markdown: '', included: [], truncated: true };
  let out = header;
  const included: string[] = [];
  let truncated = false;

  // Always-load notes share what is left after their own headings, in order (those whose heading no
  // longer fits are left out: the result never exceeds the budget).
  const alwaysHeads = always.map(itemHead);
  let used = out.length;
  let fitting = 0;
  for (const head of alwaysHeads) {
    if (used + head.length + 2 > budget) break;
    used += head.length + 2;
    fitting++;
  }
  if (fitting < always.length) truncated = true;
  let room = budget - used;
  always.slice(0, fitting).forEach((c, i) => {
    const body = c.body.trim();
    const fit = Math.max(0, room);
    const text = body.length <= fit ? body : cut(body, fit);
    if (text !== body) truncated = true;
    out += `${alwaysHeads[i]}${text}\n\n`;
    room -= text.length;
    included.push(c.id);
  });

  for (const c of ranked) {
    const head = itemHead(c);
    const body = c.body.trim();
    const left = budget - out.length - head.length - 2;
    if (body.length <= left) {
      out += `${head}${body}\n\n`;
      included.push(c.id);
      continue;
    }
    truncated = true;
    if (left >= MIN_BODY_CHARS) {
      out += `${head}${cut(body, left)}\n\n`;
      included.push(c.id);
    }
    break;
  }
  if (included.length === 0) return { markdown: '', included, truncated };
  return { markdown: `${out.trimEnd()}\n`, included, truncated };
}

function itemHead(c: PhaseCandidate): string {
  return `### ${c.title.replace(/\s+/g, ' ').trim() || c.id}\n_${c.kind} · ${c.locator}_\n\n`;
}

/** At most `max` characters, cut at a word boundary, ending with an ellipsis. */
function cut(text: string, max: number): string {
  if (max <= 1) return '';
  if (text.length <= max) return text;
  const slice = text.slice(0, max - 1);
  const space = slice.lastIndexOf(' ');
  return `${space > max / 2 ? slice.slice(0, space) : slice}…`;
}
