import { allowedBy, isApproved, type Approvals } from './approvals.js';
import { formatArgv } from './command-text.js';

/**
 * The trust model's decision, pure: may a command run in a repo now? A plan comes from the vault, which
 * any device, collaborator or plugin that syncs it can write, and a model picks its own `run_command`
 * calls; so no command runs on this machine until a person here has said yes to it, once per repo.
 *
 * In order: approved before in this repo → run; matches the repo's allow-list → run; the run was
 * started with `--yes` → run; a person can be asked (a terminal, a VS Code window) → ask; else refuse,
 * naming the three ways to consent.
 */
export interface TrustQuestion {
  readonly argv: readonly string[];
  /** The repo key (the real path of its root). */
  readonly repo: string;
  readonly approvals: Approvals;
  /** Consent for every command of this run (`agentm run --yes`). */
  readonly yes: boolean;
  /** Whether someone can be asked now. */
  readonly canAsk: boolean;
}

export type TrustBasis = 'approved' | 'allow-list' | 'yes' | 'asked';

export type TrustDecision =
  | { readonly action: 'run'; readonly basis: TrustBasis; readonly pattern?: string }
  | { readonly action: 'ask' }
  | { readonly action: 'refuse'; readonly reason: string };

/** The three ways to consent, as one sentence (for a refusal or a declined prompt). */
export function consentHint(argv: readonly string[]): string {
  const command = formatArgv(argv);
  return (
    `To let it run: \`agentm run --yes\` (this run only), \`agentm approve add -- ${command}\` (this command, in this repo), ` +
    `or \`agentm approve allow '<pattern>'\` (an allow-list pattern for this repo, \`*\` matches anything)`
  );
}

/** Why a command that nobody approved did not run. */
export function notApprovedReason(argv: readonly string[], repo: string): string {
  return (
    `command \`${formatArgv(argv)}\` has not been approved in ${repo}, and no one can be asked here (not a terminal): ` +
    `nothing ran. ${consentHint(argv)}.`
  );
}

/** Why a command that a person declined did not run. */
export function declinedReason(argv: readonly string[], repo: string): string {
  return `command \`${formatArgv(argv)}\` was declined in ${repo}: nothing ran. ${consentHint(argv)}.`;
}

export function decideCommandTrust(q: TrustQuestion): TrustDecision {
  if (isApproved(q.approvals, q.repo, q.argv)) return { action: 'run', basis: 'approved' };
  const pattern = allowedBy(q.approvals, q.repo, q.argv);
  if (pattern !== undefined) return { action: 'run', basis: 'allow-list', pattern };
  if (q.yes) return { action: 'run', basis: 'yes' };
  if (q.canAsk) return { action: 'ask' };
  return { action: 'refuse', reason: notApprovedReason(q.argv, q.repo) };
}
