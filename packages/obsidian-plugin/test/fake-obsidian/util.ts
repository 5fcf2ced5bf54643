import type { Debouncer, SearchResult } from 'obsidian';
import './dom-helpers.js';

/**
 * Obsidian's `normalizePath`: forward slashes, no duplicate or leading/trailing slashes, non-breaking
 * spaces to spaces, Unicode NFC; the empty path is the root `/`.
 */
export function normalizePath(path: string): string {
  const cleaned = path
    .replace(/[\\/]+/g, '/')
    .replace(/^\/+|\/+$/g, '')
    .replace(/\u00A0|\u202F/g, ' ')
    .normalize('NFC');
  return cleaned === '' ? '/' : cleaned;
}

/** Obsidian's `debounce`: calls `cb` once `timeout` ms after the first (or, with `resetTimer`, the last) call. */
export function debounce<T extends unknown[], V>(
  cb: (...args: [...T]) => V,
  timeout = 0,
  resetTimer = false,
): Debouncer<T, V> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: T | undefined;
  const fire = (): V | undefined => {
    timer = undefined;
    const args = pending;
    pending = undefined;
    return args ? cb(...args) : undefined;
  };
  const debounced = ((...args: T) => {
    pending = args;
    if (timer !== undefined && !resetTimer) return debounced;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(fire, timeout);
    return debounced;
  }) as Debouncer<T, V>;
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
    return debounced;
  };
  debounced.run = () => {
    if (timer === undefined) return undefined;
    clearTimeout(timer);
    return fire();
  };
  return debounced;
}

/** Obsidian's `setIcon`: replaces the element's children with the named icon's SVG (here, an empty one). */
export function setIcon(parent: HTMLElement, iconId: string): void {
  parent.empty();
  parent.createSvg('svg', { cls: ['svg-icon', `lucide-${iconId}`], attr: { 'data-icon': iconId } });
}

/** Obsidian's `prepareFuzzySearch`: every query character in order; a score that favours tight, early runs. */
export function prepareFuzzySearch(query: string): (text: string) => SearchResult | null {
  const needle = query.toLowerCase().replace(/\s+/g, '');
  return (text) => {
    const hay = text.toLowerCase();
    const matches: Array<[number, number]> = [];
    let from = 0;
    let score = 0;
    for (const ch of needle) {
      const at = hay.indexOf(ch, from);
      if (at < 0) return null;
      const last = matches[matches.length - 1];
      if (last && last[1] === at) last[1] = at + 1;
      else matches.push([at, at + 1]);
      score -= at - from;
      from = at + 1;
    }
    return { score: score - matches.length, matches };
  };
}

/** The desktop app. */
export const Platform = {
  isDesktop: true,
  isMobile: false,
  isDesktopApp: true,
  isMobileApp: false,
  isIosApp: false,
  isAndroidApp: false,
  isPhone: false,
  isTablet: false,
  isMacOS: process.platform === 'darwin',
  isWin: process.platform === 'win32',
  isLinux: process.platform === 'linux',
  isSafari: false,
  resourcePathPrefix: 'app://local/',
};

/** What a member of the real API the fake does not model does when called: fail loudly, by name. */
export function notInFake(member: string): never {
  throw new Error(
    `${member} is not modelled by the fake obsidian module; model it (test/fake-obsidian) before using it`,
  );
}
