import type { PlanDocument } from '../plan/plan-document.js';
import { CommandSyntaxError, splitCommand } from './shell-words.js';
import { commandDigest } from './command-text.js';

/** A command a plan would run, and the first step that runs it. */
export interface PlannedCommand {
  readonly step: string;
  readonly argv: readonly string[];
}

/**
 * The commands a run of `doc` may still start, once each, in plan order: every `[cmd:: …]` of a step
 * that is not done or cancelled (a running step may be recovered and run again). A command that does
 * not split is left out: its step fails with the syntax error, nothing runs. What `agentm run` shows
 * and asks about before it starts.
 */
export function commandsToApprove(doc: PlanDocument): PlannedCommand[] {
  const seen = new Set<string>();
  const out: PlannedCommand[] = [];
  for (const step of doc.steps) {
    if (!step.cmd || step.stored === 'done' || step.stored === 'cancelled') continue;
    let argv: string[];
    try {
      argv = splitCommand(step.cmd);
    } catch (error) {
      if (error instanceof CommandSyntaxError) continue;
      throw error;
    }
    const digest = commandDigest(argv);
    if (seen.has(digest)) continue;
    seen.add(digest);
    out.push({ step: step.id, argv });
  }
  return out;
}
