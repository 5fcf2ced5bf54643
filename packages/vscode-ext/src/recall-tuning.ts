// Pure: the recall settings a person set, as core's query takes them. No vscode import (table-tested).
import type { AgentMSettings } from './settings';

/**
 * The recall tuning as core's query takes it: only what a person set. A half-life set here applies to
 * every memory, exactly as `agentm recall --half-life` does; unset, notes age by the config's
 * `memory.recall.note_half_life` and harness-log entries by memQL's hour (the workspace resolves it).
 */
export function recallTuning(settings: AgentMSettings): {
  readonly wSem?: number;
  readonly wRec?: number;
  readonly halfLife?: number;
} {
  const r = settings.recall;
  return {
    ...(r.semanticWeight !== undefined ? { wSem: r.semanticWeight } : {}),
    ...(r.recencyWeight !== undefined ? { wRec: r.recencyWeight } : {}),
    ...(r.halfLifeHours !== undefined ? { halfLife: r.halfLifeHours * 3_600_000 } : {}),
  };
}
