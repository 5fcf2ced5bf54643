import { HarnessError } from '../errors.js';
import { commandDigest, formatArgv } from './command-text.js';

/**
 * The device-local record of which commands a person approved in which repo, and which patterns they
 * allow there. Kept outside the vault (it would otherwise sync, and anyone who can write the vault could
 * approve their own commands). Pure data and pure updates; `approvals-file.ts` reads and writes it.
 */
export const APPROVALS_VERSION = 1;

export interface ApprovedCommand {
  /** The command as it was shown when approved. */
  readonly command: string;
  readonly approved_at: string;
}

export interface RepoTrust {
  /** Approved commands by `commandDigest`. */
  readonly approved: Readonly<Record<string, ApprovedCommand>>;
  /** Allow-list patterns: a command (as `formatArgv` writes it) matching one runs without asking. */
  readonly allow: readonly string[];
}

export interface Approvals {
  readonly version: typeof APPROVALS_VERSION;
  /** By repo: the real path of the repo's root. */
  readonly repos: Readonly<Record<string, RepoTrust>>;
}

/** The approvals file cannot be read as approvals (corrupt JSON, wrong shape, newer version). */
export class ApprovalsFileError extends HarnessError {
  readonly file: string;
  constructor(file: string, problem: string, cause?: unknown) {
    super(
      `the command approvals file ${file} ${problem}; fix it or delete it (every command then asks for approval again)`,
      { code: 'EAPPROVALSFILE', cause },
    );
    this.file = file;
  }
}

export function emptyApprovals(): Approvals {
  return { version: APPROVALS_VERSION, repos: {} };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the file's text; anything but the expected shape is `ApprovalsFileError` (never a silent reset). */
export function parseApprovals(text: string, file: string): Approvals {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApprovalsFileError(file, 'is not valid JSON', error);
  }
  if (!isObject(value) || !isObject(value['repos'])) throw new ApprovalsFileError(file, 'has no "repos" object');
  if (value['version'] !== APPROVALS_VERSION)
    throw new ApprovalsFileError(file, `has version ${JSON.stringify(value['version'])}, not ${APPROVALS_VERSION}`);
  const repos: Record<string, RepoTrust> = {};
  for (const [repo, raw] of Object.entries(value['repos'])) {
    if (!isObject(raw) || !isObject(raw['approved']) || !Array.isArray(raw['allow']))
      throw new ApprovalsFileError(file, `has a malformed entry for ${JSON.stringify(repo)}`);
    const approved: Record<string, ApprovedCommand> = {};
    for (const [digest, entry] of Object.entries(raw['approved'])) {
      if (!isObject(entry) || typeof entry['command'] !== 'string' || typeof entry['approved_at'] !== 'string')
        throw new ApprovalsFileError(file, `has a malformed approval ${JSON.stringify(digest)}`);
      approved[digest] = { command: entry['command'], approved_at: entry['approved_at'] };
    }
    if (!raw['allow'].every((p): p is string => typeof p === 'string'))
      throw new ApprovalsFileError(file, `has a non-string allow-list pattern for ${JSON.stringify(repo)}`);
    repos[repo] = { approved, allow: raw['allow'] };
  }
  return { version: APPROVALS_VERSION, repos };
}

/** The file's text: 2-space JSON, trailing newline. */
export function serializeApprovals(approvals: Approvals): string {
  return `${JSON.stringify(approvals, null, 2)}\n`;
}

function repoOf(approvals: Approvals, repo: string): RepoTrust {
  return approvals.repos[repo] ?? { approved: {}, allow: [] };
}

function withRepo(approvals: Approvals, repo: string, trust: RepoTrust): Approvals {
  const repos = { ...approvals.repos };
  if (Object.keys(trust.approved).length === 0 && trust.allow.length === 0) delete repos[repo];
  else repos[repo] = trust;
  return { version: APPROVALS_VERSION, repos };
}

/** Whether `argv` is approved in `repo`. */
export function isApproved(approvals: Approvals, repo: string, argv: readonly string[]): boolean {
  return commandDigest(argv) in repoOf(approvals, repo).approved;
}

/** An allow-list pattern: whitespace runs are one space; `*` matches any text (spaces included). */
export function allowPatternMatches(pattern: string, command: string): boolean {
  const normalized = pattern.trim().replace(/\s+/g, ' ');
  if (normalized === '') return false;
  const source = normalized
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${source}$`).test(command);
}

/** The first allow-list pattern of `repo` that lets `argv` run, if any. */
export function allowedBy(approvals: Approvals, repo: string, argv: readonly string[]): string | undefined {
  const command = formatArgv(argv);
  return repoOf(approvals, repo).allow.find((p) => allowPatternMatches(p, command));
}

export function withApproval(approvals: Approvals, repo: string, argv: readonly string[], at: Date): Approvals {
  const trust = repoOf(approvals, repo);
  return withRepo(approvals, repo, {
    ...trust,
    approved: {
      ...trust.approved,
      [commandDigest(argv)]: { command: formatArgv(argv), approved_at: at.toISOString() },
    },
  });
}

/** Removes approvals whose digest starts with `digestPrefix` (at least 8 characters) or whose command is `command`. */
export function withoutApproval(
  approvals: Approvals,
  repo: string,
  match: { readonly digestPrefix?: string; readonly command?: string },
): { approvals: Approvals; removed: string[] } {
  const trust = repoOf(approvals, repo);
  const approved: Record<string, ApprovedCommand> = {};
  const removed: string[] = [];
  for (const [digest, entry] of Object.entries(trust.approved)) {
    const hit =
      (match.digestPrefix !== undefined && match.digestPrefix.length >= 8 && digest.startsWith(match.digestPrefix)) ||
      (match.command !== undefined && entry.command === match.command);
    if (hit) removed.push(entry.command);
    else approved[digest] = entry;
  }
  return { approvals: withRepo(approvals, repo, { ...trust, approved }), removed };
}

export function withAllowPattern(approvals: Approvals, repo: string, pattern: string): Approvals {
  const trust = repoOf(approvals, repo);
  const p = pattern.trim().replace(/\s+/g, ' ');
  return trust.allow.includes(p) ? approvals : withRepo(approvals, repo, { ...trust, allow: [...trust.allow, p] });
}

export function withoutAllowPattern(
  approvals: Approvals,
  repo: string,
  pattern: string,
): { approvals: Approvals; removed: boolean } {
  const trust = repoOf(approvals, repo);
  const p = pattern.trim().replace(/\s+/g, ' ');
  const allow = trust.allow.filter((x) => x !== p);
  return { approvals: withRepo(approvals, repo, { ...trust, allow }), removed: allow.length !== trust.allow.length };
}

/** What is trusted in one repo (for `agentm approve list`). */
export function repoTrust(approvals: Approvals, repo: string): RepoTrust {
  return repoOf(approvals, repo);
}
