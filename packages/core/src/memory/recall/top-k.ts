/** A bounded min-heap keeping the k largest items by score, ties broken by the more recent update. Pure. */
export class TopK<T extends { readonly score: number; readonly updatedMs: number }> {
  readonly #items: T[] = [];
  constructor(private readonly k: number) {}

  #compare(a: T, b: T): number {
    return a.score - b.score || a.updatedMs - b.updatedMs;
  }

  /** Whether an item of this score (and update time) would enter the heap; spares building losers. */
  admits(score: number, updatedMs: number): boolean {
    if (this.#items.length < this.k) return this.k > 0;
    const min = this.#items[0]!;
    return score > min.score || (score === min.score && updatedMs > min.updatedMs);
  }

  push(item: T): void {
    const items = this.#items;
    if (items.length < this.k) {
      items.push(item);
      this.#up(items.length - 1);
    } else if (this.k > 0 && this.#compare(item, items[0]!) > 0) {
      items[0] = item;
      this.#down(0);
    }
  }

  /** The items, best first. */
  sorted(): T[] {
    return [...this.#items].sort((a, b) => this.#compare(b, a));
  }

  #up(i: number): void {
    const items = this.#items;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#compare(items[i]!, items[parent]!) >= 0) return;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  #down(i: number): void {
    const items = this.#items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < items.length && this.#compare(items[l]!, items[min]!) < 0) min = l;
      if (r < items.length && this.#compare(items[r]!, items[min]!) < 0) min = r;
      if (min === i) return;
      [items[i], items[min]] = [items[min]!, items[i]!];
      i = min;
    }
  }
}
