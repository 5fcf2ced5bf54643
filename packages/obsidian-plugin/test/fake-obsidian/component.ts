import type { Component as RealComponent, EventRef } from 'obsidian';

/**
 * Obsidian's `Component`: `load` runs `onload` once and loads children; `unload` unloads children,
 * runs every registered cleanup (events, DOM listeners, intervals, `register` callbacks) and then
 * `onunload`. Registering after unload has no lasting effect, as in the app.
 */
export class Component implements RealComponent {
  _loaded = false;
  /** What `onload` returned (a plugin's async onload): the fake app awaits it. */
  __onloadResult: unknown;
  #children: RealComponent[] = [];
  #cleanups: Array<() => unknown> = [];

  load(): void {
    if (this._loaded) return;
    this._loaded = true;
    this.__onloadResult = this.onload();
    for (const child of [...this.#children]) child.load();
  }

  onload(): void {}

  unload(): void {
    if (!this._loaded) return;
    this._loaded = false;
    for (const child of this.#children.splice(0).reverse()) child.unload();
    for (const cleanup of this.#cleanups.splice(0).reverse()) {
      try {
        cleanup();
      } catch (error) {
        console.error(error);
      }
    }
    this.onunload();
  }

  onunload(): void {}

  addChild<T extends RealComponent>(component: T): T {
    this.#children.push(component);
    if (this._loaded) component.load();
    return component;
  }

  removeChild<T extends RealComponent>(component: T): T {
    const i = this.#children.indexOf(component);
    if (i >= 0) {
      this.#children.splice(i, 1);
      component.unload();
    }
    return component;
  }

  register(cb: () => unknown): void {
    this.#cleanups.push(cb);
  }

  registerEvent(eventRef: EventRef): void {
    const ref = eventRef as EventRef & { e: { offref(ref: EventRef): void } };
    this.register(() => ref.e.offref(ref));
  }

  registerDomEvent(
    el: Window | Document | HTMLElement,
    type: string,
    callback: (this: HTMLElement, ev: Event) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void {
    el.addEventListener(type, callback as EventListener, options);
    this.register(() => el.removeEventListener(type, callback as EventListener, options));
  }

  registerInterval(id: number): number {
    this.register(() => window.clearInterval(id));
    return id;
  }
}
