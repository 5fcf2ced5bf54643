/**
 * What a hook puts in front of an agent unasked: the memories of a recall that pass a relevance floor,
 * each once. Nothing rather than noise — a prompt that only shares a common word with the vault
 * ("thanks, looks good", "run the tests again") gets no memory. Pure.
 *
 * The floor is scale-free, so it carries from one vault to another (IDFs are taken in units of the
 * highest IDF the index can give, so a threshold means the same in a vault of 500 notes and of
 * 100 000): a memory must hold enough of the prompt's words by their rarity (`evidence`: about one
 * per rare word, far less per common one, however long the prompt), its most specific matching word
 * must be rare enough (`specificity`), it must match some share of the prompt's IDF mass (`coverage`:
 * words the vault has never seen count against it — "how does quicksort pick a pivot"), and after the
 * first, each must score within a share of the best (`relative`).
 */
import type { RecallItem } from './recall.js';
import { INJECTION_FLOOR, type InjectionFloor } from './ranking.js';

/** Whether an item clears the floor's absolute parts (coverage, evidence and specificity). */
export function clearsFloor(
  item: Pick<RecallItem, 'coverage' | 'evidence' | 'specificity' | 'similarity'>,
  floor: InjectionFloor,
): boolean {
  return (
    item.similarity > 0 &&
    item.coverage >= floor.coverage &&
    item.evidence >= floor.evidence &&
    item.specificity >= floor.specificity
  );
}

/** A title as a person reads it, for telling two memories of the same title apart. */
function titleKey(title: string): string {
  return title.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The memories to inject, best first: at most `k` of `items` (a recall's, best first) that clear the
 * floor, within `floor.relative` of the best one's score, never an always-load note (the session
 * start gave those), never the same memory or the same title twice.
 */
export function memoriesToInject(
  items: readonly RecallItem[],
  k: number,
  floor: InjectionFloor = INJECTION_FLOOR,
): RecallItem[] {
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
