import { withApproval } from './approvals.js';
import { readApprovals, repoKey, updateApprovals } from './approvals-file.js';
import { formatArgv } from './command-text.js';
import { decideCommandTrust, declinedReason, type TrustBasis } from './trust-decision.js';

/** A command about to run, and what asked for it (for the person who is asked). */
export interface CommandRequest {
  readonly argv: readonly string[];
  /** `step "build"`, `run_command in step "fix"`. */
  readonly origin: string;
}

export type GateVerdict =
  { readonly allowed: true; readonly basis: TrustBasis } | { readonly allowed: false; readonly reason: string };

/** The one check every spawn of a plan's or a model's command goes through (see `decideCommandTrust`). */
export interface CommandGate {
  /** Never throws: a failure to decide (an unreadable approvals file) is a refusal naming it. */
  check(request: CommandRequest): Promise<GateVerdict>;
}

/** What a person is shown. */
export interface ApprovalPrompt {
  readonly command: string;
  readonly argv: readonly string[];
  readonly repo: string;
  readonly origin: string;
}

/** Asks a person (a terminal prompt, a VS Code modal); true means run it and remember the approval. */
export type ApprovalAsker = (prompt: ApprovalPrompt) => Promise<boolean>;

export interface CommandGateOptions {
  /** The repo's root (commands run there; approvals are per repo). */
  readonly projectRoot: string;
  /** The approvals file (`approvalsFilePath`). */
  readonly file: string;
  /** `agentm run --yes`: consent for every command of this run (nothing is recorded). */
  readonly yes?: boolean;
  /** Who to ask; absent → nobody can be asked (not a terminal) and unapproved commands are refused. */
  readonly ask?: ApprovalAsker;
  readonly now?: () => Date;
  /** Lock options for writing the approvals file. */
  readonly env?: NodeJS.ProcessEnv;
  readonly home?: string;
  readonly lockRoot?: string;
}

/**
 * The shell around `decideCommandTrust`: reads the approvals file fresh for each command (another run
 * may have approved it meanwhile), asks one question at a time and in the order the commands were
 * checked (each check takes its place in line before its first read, whose completion order the
 * filesystem does not keep; concurrent steps wait their turn and then look again: the previous answer
 * may have approved them too), and records a yes.
 */
export function createCommandGate(options: CommandGateOptions): CommandGate {
  const repo = repoKey(options.projectRoot);
  let line: Promise<void> = Promise.resolve();
  /** A place in line, taken now; `leave` lets the next one ask (at once, if this one needs no question). */
  const takePlace = (): { turn: Promise<void>; leave: () => void } => {
    const turn = line;
    let leave!: () => void;
    const left = new Promise<void>((resolve) => (leave = resolve));
    line = turn.then(() => left);
    return { turn, leave };
  };
  const decide = async (argv: readonly string[], canAsk: boolean) =>
    decideCommandTrust({ argv, repo, approvals: await readApprovals(options.file), yes: options.yes === true, canAsk });
  /** Once its turn has come: looks again (the previous answer may have approved it), then asks. */
  const lookAgainAndAsk = async (request: CommandRequest): Promise<GateVerdict> => {
    const again = await decide(request.argv, true);
    if (again.action === 'run') return { allowed: true, basis: again.basis };
    if (again.action === 'refuse') return { allowed: false, reason: again.reason };
    const yes = await options.ask!({
      command: formatArgv(request.argv),
      argv: request.argv,
      repo,
      origin: request.origin,
    });
    if (!yes) return { allowed: false, reason: declinedReason(request.argv, repo) };
    await updateApprovals(
      options.file,
      (current) => ({
        approvals: withApproval(current, repo, request.argv, (options.now ?? (() => new Date()))()),
        result: undefined,
      }),
      { env: options.env, home: options.home, lockRoot: options.lockRoot },
    );
    return { allowed: true, basis: 'asked' };
  };
  return {
    async check(request) {
      const place = takePlace();
      try {
        const decision = await decide(request.argv, options.ask !== undefined);
        if (decision.action === 'run') return { allowed: true, basis: decision.basis };
        if (decision.action === 'refuse') return { allowed: false, reason: decision.reason };
        await place.turn;
        return await lookAgainAndAsk(request);
      } catch (error) {
        return {
          allowed: false,
          reason: `command \`${formatArgv(request.argv)}\` did not run: its approval could not be checked (${(error as Error).message})`,
        };
      } finally {
        place.leave();
      }
    },
  };
}
