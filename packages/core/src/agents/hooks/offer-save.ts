/**
 * agentm's `offer-save` (its §2.23): whether a save candidate is saved silently, offered to the person,
 * or skipped, by `HARNESS_AUTO_SAVE_MODE` and the candidate's confidence. The decision is pure; the
 * shell prints agentm's lines and calls the save it is given.
 */

export type AutoSaveMode = 'ask' | 'silent' | 'off';
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.8;

/** `HARNESS_AUTO_SAVE_MODE` trimmed and lower-cased; anything but ask/silent/off is `ask`. */
export function autoSaveMode(env: Readonly<Record<string, string | undefined>>): AutoSaveMode {
  const mode = env['HARNESS_AUTO_SAVE_MODE']?.trim().toLowerCase();
  return mode === 'silent' || mode === 'off' ? mode : 'ask';
}

/** `HARNESS_AUTO_SAVE_CONFIDENCE_THRESHOLD`, a number in [0, 1]; anything else is 0.8. */
export function confidenceThreshold(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env['HARNESS_AUTO_SAVE_CONFIDENCE_THRESHOLD']?.trim();
  const n = raw === undefined || raw === '' ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : DEFAULT_CONFIDENCE_THRESHOLD;
}

export type OfferDecision = 'off' | 'prompt' | 'auto-save' | 'silent-save';

/** off → skip; silent → save; ask → save without asking when the confidence reaches the threshold, else ask. */
export function decideOffer(mode: AutoSaveMode, threshold: number, confidence: number | undefined): OfferDecision {
  if (mode === 'off') return 'off';
  if (mode === 'silent') return 'silent-save';
  return confidence !== undefined && confidence >= threshold ? 'auto-save' : 'prompt';
}

/** What is offered for saving. */
export interface SaveCandidate {
  readonly phase: string;
  readonly project: string;
  /** Where it would be filed (`desk/projects/<project>`), for the preview. */
  readonly target: string;
  readonly kind: string;
  readonly slug: string;
  readonly body: string;
  readonly confidence?: number | undefined;
  readonly reason?: string | undefined;
}

export type OfferOutcome = 'saved' | 'skipped' | 'off';

/** agentm's preview of a candidate it asks about. */
export function offerPreview(c: SaveCandidate, threshold: number): string {
  const lines = [
    `--- offer-save preview (${c.phase} → ${c.target}) ---`,
    `kind: ${c.kind}`,
    `slug: ${c.slug}`,
    ...(c.confidence !== undefined
      ? [`confidence: ${c.confidence.toFixed(2)} (threshold: ${threshold.toFixed(2)})`]
      : []),
    ...(c.reason ? [`reason: ${c.reason}`] : []),
    'body:',
    '---',
    c.body.replace(/\s+$/, ''),
    '---',
    '',
  ];
  return lines.join('\n');
}

/**
 * Offers `candidate` for saving: prints agentm's lines through `say` (stderr in a hook: its stdout is
 * Claude Code's) and calls `save` when the mode and confidence allow, or when the person says `y`/`yes`
 * to `confirm`. Without `confirm` (stdin is not a terminal) nothing ever prompts: the candidate is
 * skipped. Errors of `save` propagate.
 */
export async function offerSave(
  candidate: SaveCandidate,
  io: {
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly say: (line: string) => void;
    readonly confirm: ((question: string) => Promise<boolean>) | undefined;
    readonly save: () => Promise<void>;
  },
): Promise<OfferOutcome> {
  const mode = autoSaveMode(io.env);
  const threshold = confidenceThreshold(io.env);
  const name = `${candidate.kind}/${candidate.slug}`;
  const decision = decideOffer(mode, threshold, candidate.confidence);
  if (decision === 'off') {
    io.say(`[harness_memory] HARNESS_AUTO_SAVE_MODE=off — skip save: ${name}`);
    return 'off';
  }
  if (decision === 'prompt') {
    io.say(offerPreview(candidate, threshold));
    if (!io.confirm) {
      io.say(`[harness_memory] non-TTY stdin — defaulting to SKIP for ${name}`);
      return 'skipped';
    }
    const yes = await io.confirm('save this entry? [y/N] ').catch(() => false);
    if (!yes) {
      io.say(`[harness_memory] skipped ${name}`);
      return 'skipped';
    }
  } else if (decision === 'auto-save') {
    io.say(
      `[auto-saved high-confidence] ${name} (confidence=${candidate.confidence!.toFixed(2)} ≥ threshold=${threshold.toFixed(2)})`,
    );
  } else {
    io.say(`[harness_memory] silent save: ${name}`);
  }
  await io.save();
  return 'saved';
}
