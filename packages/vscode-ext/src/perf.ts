import { performance } from 'node:perf_hooks';

/**
 * The extension's own performance marks. `agentm:module` is set by the first line of the bundle
 * (esbuild banner), so `moduleToActivatedMs` covers loading the bundle (core included) and activate().
 */
export const MARK_MODULE = 'agentm:module';
export const MARK_MODULE_END = 'agentm:module:end';
export const MARK_ACTIVATE_START = 'agentm:activate:start';
export const MARK_ACTIVATE_END = 'agentm:activate:end';
export const MARK_STATUS_READY = 'agentm:status:ready';
/** An AgentM view became visible for the first time. */
export const MARK_VIEW_VISIBLE = 'agentm:view:visible';
/** The memory index started opening (never before a view is visible or a memory command runs). */
export const MARK_INDEX_OPEN = 'agentm:index:open';
/** The memory index is loaded and up to date with the notes. */
export const MARK_INDEX_READY = 'agentm:index:ready';

export interface ActivationReport {
  /** Bundle evaluation start → end of activate() (includes VS Code preparing the extension context). */
  readonly moduleToActivatedMs: number | undefined;
  /** Evaluating the bundle (core included). */
  readonly moduleEvalMs: number | undefined;
  /** activate() alone. */
  readonly activateMs: number | undefined;
  /** activate() start → status bar showing the selected backend (first async check done). */
  readonly activateToStatusMs: number | undefined;
  /** First view visible → index opening (≥ 0: the index waits for the views). */
  readonly viewToIndexOpenMs: number | undefined;
  /** Index opening → index loaded and refreshed. */
  readonly indexOpenToReadyMs: number | undefined;
  readonly marks: Readonly<Record<string, number>>;
}

export function mark(name: string): void {
  performance.mark(name);
}

/** Sets `name` unless it is already set (first occurrence only). */
export function markOnce(name: string): void {
  if (performance.getEntriesByName(name, 'mark').length === 0) performance.mark(name);
}

function at(name: string): number | undefined {
  const entries = performance.getEntriesByName(name, 'mark');
  return entries.length ? entries[entries.length - 1]!.startTime : undefined;
}

/** The first time a mark was set (the index may open again for another memory root). */
function firstAt(name: string): number | undefined {
  return performance.getEntriesByName(name, 'mark')[0]?.startTime;
}

const span = (from: number | undefined, to: number | undefined) =>
  from === undefined || to === undefined ? undefined : Math.round((to - from) * 100) / 100;

export function activationReport(): ActivationReport {
  const names = [
    MARK_MODULE,
    MARK_MODULE_END,
    MARK_ACTIVATE_START,
    MARK_ACTIVATE_END,
    MARK_STATUS_READY,
    MARK_VIEW_VISIBLE,
    MARK_INDEX_OPEN,
    MARK_INDEX_READY,
  ];
  const marks: Record<string, number> = {};
  for (const n of names) {
    const t = at(n);
    if (t !== undefined) marks[n] = Math.round(t * 100) / 100;
  }
  return {
    moduleToActivatedMs: span(at(MARK_MODULE), at(MARK_ACTIVATE_END)),
    moduleEvalMs: span(at(MARK_MODULE), at(MARK_MODULE_END)),
    activateMs: span(at(MARK_ACTIVATE_START), at(MARK_ACTIVATE_END)),
    activateToStatusMs: span(at(MARK_ACTIVATE_START), at(MARK_STATUS_READY)),
    viewToIndexOpenMs: span(firstAt(MARK_VIEW_VISIBLE), firstAt(MARK_INDEX_OPEN)),
    indexOpenToReadyMs: span(firstAt(MARK_INDEX_OPEN), firstAt(MARK_INDEX_READY)),
    marks,
  };
}
