import type { EventRef as RealEventRef, Events as RealEvents } from 'obsidian';
import { eventRefTracker } from './tracking.js';

/** Obsidian's EventRef: an opaque handle; ours remembers where it is registered so `offref` can remove it. */
export interface EventRef extends RealEventRef {
  readonly e: Events;
  readonly name: string;
  readonly fn: (...data: unknown[]) => unknown;
  readonly ctx: unknown;
}

/**
 * Obsidian's `Events`: named handlers called in registration order with `ctx` as `this`. A throwing
 * handler is logged and does not stop the others (the real `trigger` goes through `tryTrigger`).
 */
export class Events implements RealEvents {
  #handlers = new Map<string, EventRef[]>();

  on(name: string, callback: (...data: unknown[]) => unknown, ctx?: unknown): EventRef {
    const ref: EventRef = { e: this, name, fn: callback, ctx };
    const list = this.#handlers.get(name) ?? [];
    list.push(ref);
    this.#handlers.set(name, list);
    eventRefTracker.added(ref);
    return ref;
  }

  off(name: string, callback: (...data: unknown[]) => unknown): void {
    const list = this.#handlers.get(name);
    if (!list) return;
    for (const ref of list.filter((r) => r.fn === callback)) this.offref(ref);
  }

  offref(ref: RealEventRef): void {
    const r = ref as EventRef;
    const list = this.#handlers.get(r.name);
    if (!list) return;
    const i = list.indexOf(r);
    if (i >= 0) list.splice(i, 1);
    eventRefTracker.removed(r);
  }

  trigger(name: string, ...data: unknown[]): void {
    for (const ref of [...(this.#handlers.get(name) ?? [])]) this.tryTrigger(ref, data);
  }

  tryTrigger(evt: RealEventRef, args: unknown[]): void {
    const ref = evt as EventRef;
    try {
      ref.fn.apply(ref.ctx, args);
    } catch (error) {
      console.error(error);
    }
  }

  /** Test aid (not in the real API): how many handlers are registered for `name`. */
  listenerCount(name: string): number {
    return this.#handlers.get(name)?.length ?? 0;
  }
}
