import { HarnessError } from '../errors.js';
import type { PlanDocument } from '../plan/plan-document.js';
import type { CommandGate } from './command-gate.js';
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

/** A run refused before it started: commands of the plan nobody approved (declined, or no one to ask). */
export class CommandsNotApprovedError extends HarnessError {
  readonly plan: string;
  readonly refusals: readonly string[];
  constructor(plan: string, refusals: readonly string[]) {
    super(`plan ${plan} was not started:\n  ${refusals.join('\n  ')}`, { code: 'ENOTAPPROVED' });
    this.plan = plan;
    this.refusals = refusals;
  }
}

/**
 * Before a run claims anything: every command the plan may still run goes through the gate (the person
 * is asked about each new one now — a terminal prompt, an editor's dialog — not in the middle of the
 * run). Any refusal is `CommandsNotApprovedError`, with the plan left as it was: `agentm run --yes` (or a
 * run after `agentm approve add`) can simply start it.
 */
export async function approvePlanCommands(plan: string, doc: PlanDocument, gate: CommandGate): Promise<void> {
  const refusals: string[] = [];
  for (const c of commandsToApprove(doc)) {
    const verdict = await gate.check({ argv: c.argv, origin: `step "${c.step}"` });
    if (!verdict.allowed) refusals.push(`step "${c.step}": ${verdict.reason}`);
  }
  if (refusals.length > 0) throw new CommandsNotApprovedError(plan, refusals);
}
