/**
 * The browser half of the fake: Obsidian runs plugins in Electron's renderer, where `window`,
 * `document` and the DOM classes are globals. Test files run in Node, so on first import this installs
 * a happy-dom window the way vitest's own `happy-dom` environment does (`populateGlobal`: DOM names
 * only; Node's timers, fetch, URL and Buffer stay Node's), unless a DOM is already present.
 *
 * Why happy-dom and not jsdom: jsdom's maintained line (31.x) needs Node ≥ 22 and this repository runs on
 * Node 20; happy-dom 21 supports Node 20, has no native parts, and is what vitest ships an environment for.
 * The plugin only needs element creation, classes, attributes, text, events and queries, which both
 * implement alike.
 */
import { PropertySymbol, Window } from 'happy-dom';
import { populateGlobal } from 'vitest/runtime';

interface ListenerTarget {
  readonly [key: symbol]: unknown;
}

let installed: Window | undefined;

/** Installs the DOM globals once per test process. Returns the happy-dom window. */
export function installDom(): Window {
  if (installed) return installed;
  const win = new Window({ url: 'app://obsidian.md/index.html', settings: { disableErrorCapturing: true } });
  populateGlobal(globalThis, win, { bindFunctions: true });
  installed = win;
  return win;
}

installDom();

/** One DOM listener as happy-dom stores it (ground truth: the listener lists themselves). */
export interface DomListener {
  readonly target: EventTarget;
  readonly type: string;
  readonly listener: unknown;
  readonly capture: boolean;
}

function listenersOf(target: EventTarget): DomListener[] {
  const store = (target as unknown as ListenerTarget)[PropertySymbol.listeners] as
    { bubbling: Map<string, unknown[]>; capturing: Map<string, unknown[]> } | undefined;
  if (!store) return [];
  const found: DomListener[] = [];
  for (const [phase, map] of [
    ['bubbling', store.bubbling],
    ['capturing', store.capturing],
  ] as const) {
    for (const [type, list] of map)
      for (const listener of list) found.push({ target, type, listener, capture: phase === 'capturing' });
  }
  return found;
}

/**
 * Every listener that can still fire: on the window, the document, and each element connected to the
 * document. Listeners on detached elements are garbage once the elements are, as in a browser.
 */
export function liveDomListeners(): DomListener[] {
  const doc = installDom().document as unknown as Document;
  const targets: EventTarget[] = [globalThis as unknown as EventTarget, doc, ...Array.from(doc.querySelectorAll('*'))];
  const win = installed as unknown as EventTarget;
  if (win !== (globalThis as unknown)) targets.push(win);
  return targets.flatMap(listenersOf);
}
