/**
 * A queue of keys filled by a producer (the walk) and drained by a pool of workers (the readers), so
 * a cold build reads and indexes the first directories while the walk is still listing the others.
 */
export class KeyFeed {
  readonly #items: string[] = [];
  #head = 0;
  #closed = false;
  #waiters: Array<() => void> = [];
  /** Told each time a key is taken: how many so far, how many were pushed, whether more may come (progress). */
  onTake: ((taken: number, total: number, closed: boolean) => void) | undefined;

  static of(keys: readonly string[]): KeyFeed {
    const feed = new KeyFeed();
    feed.push(keys);
    feed.close();
    return feed;
  }

  /** How many keys were ever pushed. */
  get total(): number {
    return this.#items.length;
  }

  push(keys: readonly string[]): void {
    for (const key of keys) this.#items.push(key);
    this.#wake();
  }

  /** No more keys will come: waiting workers finish. */
  close(): void {
    this.#closed = true;
    this.#wake();
  }

  /** The next key, or undefined once the feed is closed and drained. */
  async next(): Promise<string | undefined> {
    for (;;) {
      if (this.#head < this.#items.length) {
        const key = this.#items[this.#head++];
        this.onTake?.(this.#head, this.#items.length, this.#closed);
        return key;
      }
      if (this.#closed) return undefined;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
