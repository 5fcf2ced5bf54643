import { Component, ItemView } from 'obsidian';
import { displayError } from '../errors.js';

/**
 * An `ItemView` that draws itself from data it reads first. Only the latest requested draw is shown: a
 * newer request supersedes the ones still reading (their results are dropped, never drawn over a newer
 * one). Each draw's listeners live in a child component that the next draw replaces, so they end with it.
 */
export abstract class DrawnView extends ItemView {
  #generation = 0;
  #drawn: Promise<void> = Promise.resolve();
  #draw: Component | undefined;
  #closed = false;

  /** Resolves when the latest requested draw is on screen (a superseded draw waits for its successor). */
  async rendered(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.#drawn;
      await current;
    } while (current !== this.#drawn);
  }

  /** Reads and draws again; `current()` says whether this draw is still the latest (check it before `show`). */
  protected requestDraw(draw: (current: () => boolean) => Promise<void>, failure: string): void {
    if (this.#closed) return; // an action that settles after the view closed draws nothing
    const generation = ++this.#generation;
    this.#drawn = draw(() => generation === this.#generation).catch((error) => displayError(error, failure));
  }

  /** Puts `root` on screen, its listeners owned by `owner` (the previous draw's end). */
  protected show(root: HTMLElement, owner: Component): void {
    if (this.#draw) this.removeChild(this.#draw);
    this.#draw = this.addChild(owner);
    this.contentEl.empty();
    this.contentEl.appendChild(root);
  }

  protected override async onClose(): Promise<void> {
    this.#closed = true;
    this.#generation++; // a draw still reading shows nothing
  }
}
