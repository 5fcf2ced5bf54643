import type { Workspace } from '../../workspace/workspace.js';
import type { ProjectResolution } from '../../routing/resolve-project.js';
import type { HookPayload } from './hook-io.js';
import type { Raced } from './budget.js';

/** What a hook handler gets: the input, the workspace of its directory, and where to report. */
export interface HookContext {
  readonly payload: HookPayload;
  readonly env: NodeJS.ProcessEnv;
  readonly ws: Workspace;
  /** The repository's project (always resolved: a directory is a repository, with or without a slug). */
  readonly project: ProjectResolution;
  /** One line on stderr (Claude Code shows it in verbose mode; it never reaches the model). */
  readonly warn: (line: string) => void;
  /** Races a piece of work against the hook's deadline (no deadline: it just waits). */
  readonly race: <T>(work: Promise<T>) => Promise<Raced<T>>;
  /** Asks the person at the terminal; undefined when stdin is not a terminal (then nothing ever prompts). */
  readonly confirm: ((question: string) => Promise<boolean>) | undefined;
  readonly now: () => Date;
}

/** What a handler answers: the stdout Claude Code reads (JSON), or nothing. */
export interface HookAnswer {
  readonly stdout: string;
  /** How the answer was made, for the timing line of `AGENTM_HOOK_DEBUG=1` (e.g. which process recalled). */
  readonly note?: string | undefined;
}

export type HookHandler = (ctx: HookContext) => Promise<HookAnswer>;

export const NO_ANSWER: HookAnswer = Object.freeze({ stdout: '' });
