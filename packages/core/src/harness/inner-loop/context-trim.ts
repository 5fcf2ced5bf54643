export const DEFAULT_CHARS_PER_TOKEN = 4;
/** The loop keeps the first message (system prompt) and the last six (the live thread). */
export const PINNED_HEAD = 1;
export const KEEP_TAIL = 6;

/** Approximate tokens of a string: ceil(UTF-8 bytes / charsPerToken); empty → 0. */
export function estimateTokens(text: string, charsPerToken = DEFAULT_CHARS_PER_TOKEN): number {
  const per = charsPerToken > 0 ? charsPerToken : DEFAULT_CHARS_PER_TOKEN;
  return text === '' ? 0 : Math.ceil(Buffer.byteLength(text, 'utf8') / per);
}

/** Whether the strings together exceed `maxTokens` (strictly); a non-positive budget never does. */
export function budgetExceeded(
  maxTokens: number,
  contents: readonly string[],
  charsPerToken = DEFAULT_CHARS_PER_TOKEN,
): boolean {
  if (maxTokens <= 0) return false;
  return contents.reduce((sum, c) => sum + estimateTokens(c, charsPerToken), 0) > maxTokens;
}

export interface TrimPlan {
  readonly dropCount: number;
  readonly summary: string;
}

/**
 * Which old turns to drop (memQL `PlanContextTrim`): candidates are the messages between the pinned
 * head and the kept tail; drop them oldest first while the total is over budget (stopping when they
 * run out, even if still over). Nothing to do when within budget, without a budget, or without candidates.
 */
export function planContextTrim(
  sizes: readonly number[],
  maxTokens: number,
  pinnedHead: number,
  keepTail: number,
): TrimPlan {
  const none = { dropCount: 0, summary: '' };
  if (maxTokens <= 0 || sizes.length === 0) return none;
  const head = Math.max(0, pinnedHead);
  const tail = Math.max(0, keepTail);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total <= maxTokens) return none;
  const end = sizes.length - tail;
  if (head >= end) return none;
  let freed = 0;
  let drop = 0;
  for (let i = head; i < end && total - freed > maxTokens; i++) {
    freed += sizes[i]!;
    drop++;
  }
  if (drop === 0) return none;
  return {
    dropCount: drop,
    summary: `[context trimmed: ${drop} earlier turn(s) summarized to stay within the ${maxTokens}-token window]`,
  };
}

/** A message as the trimmer sees it. */
export interface TrimmableMessage {
  readonly role: string;
  readonly content: string;
}

/**
 * The window sent to the model: when over budget, [message 0, a system note with the summary, the
 * messages after the dropped ones]. The cut never leaves a tool result without the assistant message
 * that asked for it (chat APIs reject that): it drops fewer turns instead.
 */
export function trimWindow<M extends TrimmableMessage>(
  messages: readonly M[],
  maxTokens: number,
  makeNote: (summary: string) => M,
  charsPerToken = DEFAULT_CHARS_PER_TOKEN,
): { window: M[]; dropped: number } {
  const plan = planContextTrim(
    messages.map((m) => estimateTokens(m.content, charsPerToken)),
    maxTokens,
    PINNED_HEAD,
    KEEP_TAIL,
  );
  let drop = plan.dropCount;
  while (drop > 0 && messages[PINNED_HEAD + drop]?.role === 'tool') drop--;
  if (drop === 0) return { window: [...messages], dropped: 0 };
  const summary = `[context trimmed: ${drop} earlier turn(s) summarized to stay within the ${maxTokens}-token window]`;
  return {
    window: [...messages.slice(0, PINNED_HEAD), makeNote(summary), ...messages.slice(PINNED_HEAD + drop)],
    dropped: drop,
  };
}
