import { parsePlan } from '../harness/plan/plan-document.js';
import type { PlanFiles } from '../harness/reconciler/plan-files.js';
import type { ApprovalAsker } from '../harness/commands/command-gate.js';
import { commandPolicyFor, type CommandPolicy } from '../harness/commands/command-policy.js';
import { commandsToApprove } from '../harness/commands/plan-commands.js';
import { readConfigTolerant } from '../config/config-file.js';
import { EnvAllowConfigError } from '../harness/commands/command-env.js';
import type { CliContext } from './context.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_USAGE } from './errors.js';
import { hostOf } from './support.js';

/** The terminal's approval prompt, when stdin and stderr are a terminal; a `y`/`yes` answer approves. */
export function terminalAsker(ctx: CliContext): ApprovalAsker | undefined {
  const ask = ctx.io.ask;
  if (!ask) return undefined;
  return async (p) => {
    const answer = await ask(
      `\nagentm run: ${p.origin} wants to run a command that has not been approved in ${p.repo}:\n\n    ${p.command}\n\n` +
        'Run it, and remember the approval for this repo? [y/N] ',
    );
    return /^\s*y(es)?\s*$/i.test(answer ?? '');
  };
}

/** The command policy of `agentm run` (approval gate, environment without secrets, process records). */
export async function cliCommandPolicy(ctx: CliContext, projectRoot: string, yes: boolean): Promise<CommandPolicy> {
  const host = hostOf(ctx);
  const ask = terminalAsker(ctx);
  try {
    return commandPolicyFor({
      projectRoot,
      env: host.env,
      home: host.home,
      config: await readConfigTolerant(host),
      yes,
      ...(ask ? { ask } : {}),
    });
  } catch (error) {
    if (error instanceof EnvAllowConfigError) throw new CliError(error.message, EXIT_USAGE);
    throw error;
  }
}

/**
 * Before a run starts: every command the plan may still run goes through the gate (a terminal asks
 * about each new one now, not in the middle of the run). Any refusal ends the run before anything is
 * claimed or started, so the plan is left as it was and `agentm run --yes` (or a run after
 * `agentm approve add`) can simply start it.
 */
export async function approvePlanCommands(files: PlanFiles, policy: CommandPolicy): Promise<void> {
  const snap = await files.readPlan();
  if (!snap) return;
  const refusals: string[] = [];
  for (const c of commandsToApprove(parsePlan(snap.text))) {
    const verdict = await policy.gate.check({ argv: c.argv, origin: `step "${c.step}"` });
    if (!verdict.allowed) refusals.push(`step "${c.step}": ${verdict.reason}`);
  }
  if (refusals.length > 0)
    throw new CliError(`plan ${files.name} was not started:\n  ${refusals.join('\n  ')}`, EXIT_CHECK_FAILED);
}
