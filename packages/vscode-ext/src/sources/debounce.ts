/** Trailing debounce that collects items: `flush` gets everything added since the last call. */
export class Debouncer<T> {
  #items: T[] = [];
  #timer: NodeJS.Timeout | undefined;
  #first = 0;

  /**
   * @param delayMs quiet time before a flush.
   * @param maxWaitMs a steady stream of changes (an agent writing) still flushes this often.
   */
  constructor(
    private readonly flush: (items: T[]) => void,
    private readonly delayMs = 150,
    private readonly maxWaitMs = 1000,
  ) {}

  add(...items: T[]): void {
    this.#items.push(...items);
    const now = Date.now();
    if (this.#timer === undefined) this.#first = now;
    clearTimeout(this.#timer);
    const wait = Math.max(0, Math.min(this.delayMs, this.#first + this.maxWaitMs - now));
    this.#timer = setTimeout(() => this.#fire(), wait);
  }

  #fire(): void {
    this.#timer = undefined;
    const items = this.#items;
    this.#items = [];
    this.flush(items);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#items = [];
  }
}
