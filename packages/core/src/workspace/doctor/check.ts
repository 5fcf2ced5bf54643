import type { Capabilities } from '../../seam/capabilities.js';
import type { HostEnv } from '../../config/host.js';
import type { CheckStatus } from '../../selection/storage-preview.js';

/** How a check came out: `info` is nothing wrong, only how to do more (a fresh install's vault, a provider). */
export type DoctorStatus = CheckStatus | 'info';

/**
 * One check of the doctor, as every front end shows it (the CLI prints it, `agentm mcp`'s doctor tool
 * returns it, VS Code and Obsidian render it): a front end never adds, drops or rewords a check.
 */
export interface DoctorCheck {
  /** What was checked, stable across versions: `storage`, `agreement`, `lock`, `provider chat`, `plans`, … */
  readonly id: string;
  readonly status: DoctorStatus;
  /** What was found, in words. */
  readonly message: string;
  /** What to do about it, when there is something to do. */
  readonly fix?: string;
  /** The things the message counts (each leftover temp file, each link out of the store), one per entry. */
  readonly details?: readonly string[];
}

/** What the doctor is asked to do beyond looking (each writes or reaches the network only when asked). */
export interface DoctorOptions {
  /** Finish what crashed writers left, under the lock: remove leftover temp files, finish half-done evolves. */
  readonly fix?: boolean;
  /** Write a probe note through the store and read it back. */
  readonly roundtrip?: boolean;
  /** Fail unless the store offers these capabilities. */
  readonly requires?: Partial<Capabilities>;
  /** Send one small request to each configured chat and embeddings endpoint. */
  readonly liveProviders?: boolean;
  /**
   * Only the checks a status bar shows, cheap enough for every configuration change: storage and (for
   * an editor) agreement. Nothing is walked, opened or asked.
   */
  readonly quick?: boolean;
  /**
   * An editor's workspace against the agents': the host an agent in this folder (the `agentm` CLI,
   * `agentm mcp`, Claude Code's hooks) reads its config and environment through. The `agreement` check
   * then fails when the editor's memory root or lock directory is not the agents'. Absent: this context
   * is the agents' own (the CLI, the MCP server), and there is nothing to compare.
   */
  readonly agents?: {
    readonly host: HostEnv;
    /** What in the editor overrides the shared config, by name (`the agentm.vault.path setting`). */
    readonly override?: string;
    /** How to make the two agree in this editor (`clear agentm.vault.path, or run "AgentM: Choose the vault…"`). */
    readonly fix?: string;
  };
}

const TAG: Readonly<Record<DoctorStatus, string>> = { ok: 'OK', warn: 'WARN', fail: 'FAIL', info: 'HINT' };

/**
 * A check as one line of text — `<id> [OK|WARN|FAIL|HINT] <message> — <fix>` — then its details, one
 * indented line each: what `agentm doctor` prints and the editors show. Pure.
 */
export function doctorLine(check: DoctorCheck): string {
  const head = `${check.id} [${TAG[check.status]}] ${check.message}${check.fix ? ` — ${check.fix}` : ''}`;
  return [head, ...(check.details ?? []).map((d) => `  ${d}`)].join('\n');
}

/** The check that matters most: the first failure, else the first warning, else the first check. Pure. */
export function worstCheck(checks: readonly DoctorCheck[]): DoctorCheck | undefined {
  const rank: Readonly<Record<DoctorStatus, number>> = { info: 0, ok: 0, warn: 1, fail: 2 };
  return checks.reduce<DoctorCheck | undefined>((a, b) => (!a || rank[b.status] > rank[a.status] ? b : a), undefined);
}
