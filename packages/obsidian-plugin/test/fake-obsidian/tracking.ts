/**
 * What a test needs to prove a plugin cleans up after itself and never writes HTML as text:
 * live intervals (the window's setInterval/clearInterval are wrapped), live Obsidian event
 * registrations (`Events.on`/`off`/`offref` report here), live DOM listeners (read from happy-dom's own
 * listener lists) and every innerHTML/outerHTML/insertAdjacentHTML write.
 */
import { liveDomListeners, type DomListener } from './dom-environment.js';

type IntervalHandle = ReturnType<typeof setInterval>;

const liveIntervals = new Set<IntervalHandle>();
const liveEventRefs = new Set<object>();
const htmlWrites: string[] = [];

const nativeSetInterval = globalThis.setInterval;
const nativeClearInterval = globalThis.clearInterval;

function sameHandle(a: IntervalHandle, b: unknown): boolean {
  return a === b || (typeof b === 'number' && Number(a) === b);
}

globalThis.setInterval = ((handler: (...args: unknown[]) => void, timeout?: number, ...args: unknown[]) => {
  const handle = nativeSetInterval(handler, timeout, ...args);
  liveIntervals.add(handle);
  return handle;
}) as typeof setInterval;

globalThis.clearInterval = ((handle?: unknown) => {
  for (const live of liveIntervals) if (sameHandle(live, handle)) liveIntervals.delete(live);
  nativeClearInterval(handle as IntervalHandle);
}) as typeof clearInterval;

/** Traps HTML-as-text writes on the prototype that defines them, recording the call. */
function trapHtmlWrites(): void {
  for (const property of ['innerHTML', 'outerHTML'] as const) {
    let proto: object | null = HTMLElement.prototype;
    while (proto && !Object.getOwnPropertyDescriptor(proto, property))
      proto = Object.getPrototypeOf(proto) as object | null;
    const descriptor = proto && Object.getOwnPropertyDescriptor(proto, property);
    if (!proto || !descriptor?.set) continue;
    const set = descriptor.set;
    Object.defineProperty(proto, property, {
      ...descriptor,
      set(this: Element, value: string) {
        htmlWrites.push(`${property} on <${this.tagName.toLowerCase()}>`);
        set.call(this, value);
      },
    });
  }
  const insert = Element.prototype.insertAdjacentHTML;
  Element.prototype.insertAdjacentHTML = function (this: Element, position: InsertPosition, text: string) {
    htmlWrites.push(`insertAdjacentHTML on <${this.tagName.toLowerCase()}>`);
    insert.call(this, position, text);
  };
}
trapHtmlWrites();

/** Called by the fake `Events` class. */
export const eventRefTracker = {
  added(ref: object): void {
    liveEventRefs.add(ref);
  },
  removed(ref: object): void {
    liveEventRefs.delete(ref);
  },
};

/** A point in time to compare against: what was live before the code under test ran. */
export interface Snapshot {
  readonly intervals: ReadonlySet<IntervalHandle>;
  readonly eventRefs: ReadonlySet<object>;
  readonly domListeners: ReadonlySet<unknown>;
  readonly htmlWrites: number;
}

export function snapshot(): Snapshot {
  return {
    intervals: new Set(liveIntervals),
    eventRefs: new Set(liveEventRefs),
    domListeners: new Set(liveDomListeners().map((l) => l.listener)),
    htmlWrites: htmlWrites.length,
  };
}

/** Everything added since `since` that is still live. Empty arrays mean nothing leaked. */
export function leaksSince(since: Snapshot): {
  intervals: IntervalHandle[];
  eventRefs: object[];
  domListeners: DomListener[];
} {
  return {
    intervals: [...liveIntervals].filter((h) => !since.intervals.has(h)),
    eventRefs: [...liveEventRefs].filter((r) => !since.eventRefs.has(r)),
    domListeners: liveDomListeners().filter((l) => !since.domListeners.has(l.listener)),
  };
}

/** Counts of what is live now (for asserting that something was registered at all). */
export function liveCounts(): { intervals: number; eventRefs: number; domListeners: number } {
  return { intervals: liveIntervals.size, eventRefs: liveEventRefs.size, domListeners: liveDomListeners().length };
}

/** innerHTML/outerHTML/insertAdjacentHTML writes since `since` (each "property on <tag>"). */
export function htmlWritesSince(since: Snapshot): string[] {
  return htmlWrites.slice(since.htmlWrites);
}
