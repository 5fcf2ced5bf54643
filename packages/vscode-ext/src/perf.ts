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

export interface ActivationReport {
  /** Bundle evaluation start → end of activate() (includes VS Code preparing the extension context). */
  readonly moduleToActivatedMs: number | undefined;
  /** Evaluating the bundle (core included). */
  readonly moduleEvalMs: number | undefined;
  /** activate() alone. */
  readonly activateMs: number | undefined;
  /** activate() start → status bar showing the selected backend (first async check done). */
  readonly activateToStatusMs: number | undefined;
  readonly marks: Readonly<Record<string, number>>;
}

export function mark(name: string): void {
  performance.mark(name);
}

function at(name: string): number | undefined {
  const entries = performance.getEntriesByName(name, 'mark');
  return entries.length ? entries[entries.length - 1]!.startTime : undefined;
}

const span = (from: number | undefined, to: number | undefined) =>
  from === undefined || to === undefined ? undefined : Math.round((to - from) * 100) / 100;

export function activationReport(): ActivationReport {
  const names = [MARK_MODULE, MARK_MODULE_END, MARK_ACTIVATE_START, MARK_ACTIVATE_END, MARK_STATUS_READY];
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
    marks,
  };
}
