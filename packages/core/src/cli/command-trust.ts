import type { ApprovalAsker } from '../harness/command-exec/command-gate.js';
import type { CliContext } from './context.js';

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
