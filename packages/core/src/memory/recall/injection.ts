/**
 * What a hook puts in front of an agent unasked: the memories of a recall that pass a relevance floor,
 * each once. Nothing rather than noise — a prompt that only shares a common word with the vault
 * ("thanks, looks good", "run the tests again") gets no memory. Pure.
 *
 * The floor: a memory must hold at least two of the prompt's content words (function words and chatter
 * — "how", "three", "thanks", "look" — are not content: function-words.ts), whose IDFs add up to enough
 * of the highest IDF the index can give (`evidence`), and after the first, each must score within a
 * share of the best (`relative`). Two words, because one shared word is what a near-miss has ("write
 * a haiku about deploys", "translate this error message into French"), and a note that holds two of
 * the prompt's words together rarely does so by chance; enough of their rarity, because two common words
 * ("fix" and "error") still say little. Words the vault has never seen do not count for or against
 * it: a prompt is often mostly filler ("before we continue: …"), and an off-topic question ("how does
 * quicksort pick a pivot") is answered by no note holding two of its words. Scale-free: the evidence is
 * in units of the index's highest IDF, so a threshold means the same in a vault of 500 notes and of
 * 100 000 (in evidence e, a chance co-occurrence of the words is expected in about N^(1 − e) notes).
 */
import type { RecallItem } from './recall.js';
import { INJECTION_FLOOR, type InjectionFloor } from './ranking.js';

/** Whether an item clears the floor's absolute parts (content words held, and their evidence). */
export function clearsFloor(
  item: Pick<RecallItem, 'evidence' | 'words' | 'similarity'>,
  floor: InjectionFloor,
): boolean {
  return item.similarity > 0 && item.words >= floor.words && item.evidence >= floor.evidence;
}

/** A title as a person reads it, for telling two memories of the same title apart. */
function titleKey(title: string): string {
  return title.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The memories to inject, best first: at most `k` of `items` (a recall's, best first) that clear the
 * floor, within `floor.relative` of the best one's score, never an always-load note (the session
 * start gave those), never the same memory or the same title twice. `contentWords`: the query's
 * (`RecallResult.contentWords`) — a query of one content word ("okapi", `recall-here --query ci`) asks
 * a memory to hold that one, as rare as the floor's evidence says, not two it cannot have.
 */
export function memoriesToInject(
  items: readonly RecallItem[],
  k: number,
  floor: InjectionFloor = INJECTION_FLOOR,
  contentWords?: number,
): RecallItem[] {
  if (contentWords !== undefined) floor = { ...floor, words: Math.min(floor.words, Math.max(1, contentWords)) };
  const out: RecallItem[] = [];
  const ids = new Set<string>();
  const titles = new Set<string>();
  let best: number | undefined;
  for (const item of items) {
    if (out.length >= k) break;
    if (item.alwaysLoad || !clearsFloor(item, floor)) continue;
    best ??= item.score;
    if (item.score < floor.relative * best) break;
    const title = titleKey(item.title);
    if (ids.has(item.id) || (title !== '' && titles.has(title))) continue;
    ids.add(item.id);
    titles.add(title);
    out.push(item);
  }
  return out;
}
