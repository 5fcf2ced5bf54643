import { resolve } from 'node:path';
import { processHost } from '../../config/host.js';
import { StorageSelectionError } from '../../selection/errors.js';
import { Workspace } from '../../workspace/workspace.js';
import { hookBudgetMs, raceDeadline, type Raced } from './budget.js';
import { normalizeHookEvent, parseHookPayload, HOOK_EVENTS, type HookEvent, type HookPayload } from './hook-io.js';
import type { HookAnswer, HookContext, HookHandler } from './hook-context.js';

/** What a hook run reads and writes; the process shell passes its own streams, tests their strings. */
export interface HookRunIo {
  readonly env: NodeJS.ProcessEnv;
  /** The directory when the payload names none. */
  readonly cwd: string;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** The AgentM version running: a recall server (`agentm mcp`) of this version answers the prompt hook. Absent: none is asked. */
  readonly version?: string | undefined;
  /** The hook input (stdin, whole); undefined when stdin is a terminal (no input; the person may be asked). */
  readonly readInput: () => Promise<string | undefined>;
  /** Asks the person at the terminal; only when stdin is one. */
  readonly confirm?: ((question: string) => Promise<boolean>) | undefined;
  /** Starts the background refresh of the index (`agentm reindex --background`, detached); absent: nothing is. */
  readonly background?: (() => void) | undefined;
  /** When the hook started, as a `performance.now()` value (the process shell: 0, the process's start). */
  readonly startedAt?: number;
  readonly now?: () => Date;
}

/** How a run ended, for the shell (and tests). */
export interface HookRunResult {
  readonly event: HookEvent | undefined;
  readonly answered: boolean;
  readonly overBudget: boolean;
  readonly elapsedMs: number;
  readonly budgetMs: number | undefined;
}

/** Each event's handler, imported only when that event runs (a prompt hook never loads the plan code). */
const HANDLERS: Readonly<Record<HookEvent, () => Promise<HookHandler>>> = {
  SessionStart: async () => (await import('./session-start.js')).sessionStart,
  UserPromptSubmit: async () => (await import('./user-prompt-submit.js')).userPromptSubmit,
  PreCompact: async () => (await import('./pre-compact.js')).preCompact,
  Stop: async () => (await import('./stop.js')).stop,
};

/** How long before the deadline a handler's parts stop waiting (time to render and write what is done). */
const PART_MARGIN_MS = 25;

/** A deadline race, or a plain wait when there is no deadline. */
function racer(deadline: number | undefined): <T>(work: Promise<T>) => Promise<Raced<T>> {
  return (work) =>
    deadline === undefined ? work.then((value) => ({ done: true as const, value })) : raceDeadline(work, deadline);
}

/**
 * Runs one Claude Code hook: reads its JSON input, opens the workspace of its `cwd` (read-only: no store
 * root is created; lexical recall, no provider), answers through the event's handler and prints what
 * Claude Code reads on stdout. It never fails a session: every problem is a line on stderr and the run
 * ends normally (the shell exits 0). Memory that is absent (no vault mounted) is silence. A budgeted
 * event (SessionStart 500 ms, UserPromptSubmit 300 ms, from `startedAt`, reading the input included)
 * that is late prints nothing rather than a partial answer; SessionStart leaves out, whole, only the
 * parts that were late. `AGENTM_HOOK_DEBUG=1` adds a timing line on stderr.
 */
export async function runHook(eventName: string | undefined, io: HookRunIo): Promise<HookRunResult> {
  const startedAt = io.startedAt ?? performance.now();
  const warn = (line: string) => io.err(`${line}\n`);
  let event = normalizeHookEvent(eventName);
  let budgetMs = event === undefined ? undefined : hookBudgetMs(event, io.env);
  let outcome: 'answered' | 'over budget' | 'nothing to add' = 'nothing to add';
  let note: string | undefined;
  try {
    const read = await racer(budgetMs === undefined ? undefined : startedAt + budgetMs)(io.readInput());
    if (!read.done) outcome = 'over budget';
    else {
      const { payload, problem } = parseHookPayload(read.value ?? '');
      if (problem) warn(`agentm hook: ${problem}; answering as for an empty input`);
      event ??= normalizeHookEvent(payload.hook_event_name);
      if (event === undefined)
        warn(
          `agentm hook: no event AgentM answers (${JSON.stringify(eventName ?? payload.hook_event_name ?? '')}); ` +
            `give one of ${HOOK_EVENTS.join(', ')}`,
        );
      else {
        budgetMs = hookBudgetMs(event, io.env);
        const deadline = budgetMs === undefined ? undefined : startedAt + budgetMs;
        const race = racer(deadline);
        const answering = answer(event, payload, {
          io,
          warn,
          // A handler's own parts end a little before the deadline, so what it has is still written in time.
          race: racer(deadline === undefined ? undefined : deadline - PART_MARGIN_MS),
          confirm: read.value === undefined ? io.confirm : undefined,
        });
        const raced = await race(answering);
        if (!raced.done) outcome = 'over budget';
        else if (raced.value !== undefined && raced.value.stdout !== '') {
          io.out(raced.value.stdout);
          note = raced.value.note;
          outcome = 'answered';
        }
      }
    }
  } catch (error) {
    warn(`agentm hook${event ? ` ${event}` : ''}: ${(error as Error)?.message ?? String(error)}`);
  }
  if (outcome === 'over budget')
    warn(
      `agentm hook ${event ?? ''}: over its ${budgetMs} ms budget; nothing added ` +
        '(a warm index answers in time: keep `agentm mcp` running or run `agentm reindex`)',
    );
  const elapsedMs = Math.round(performance.now() - startedAt);
  if (io.env['AGENTM_HOOK_DEBUG'] && event)
    warn(
      `agentm hook ${event}: ${outcome} after ${elapsedMs} ms${budgetMs !== undefined ? ` (budget ${budgetMs} ms)` : ''}${note !== undefined ? `; ${note}` : ''}`,
    );
  return { event, answered: outcome === 'answered', overBudget: outcome === 'over budget', elapsedMs, budgetMs };
}

/** Opens the workspace of the payload's directory and asks the event's handler; undefined when memory is absent. */
async function answer(
  event: HookEvent,
  payload: HookPayload,
  run: {
    readonly io: HookRunIo;
    readonly warn: (line: string) => void;
    readonly race: HookContext['race'];
    readonly confirm: HookContext['confirm'];
  },
): Promise<HookAnswer | undefined> {
  const { io, warn } = run;
  const ws = await openHookWorkspace(resolve(io.cwd, payload.cwd ?? '.'), io, warn);
  if (!ws) return undefined;
  const project = (await ws.project())!; // a directory always resolves, with or without a slug
  const handler = await HANDLERS[event]();
  return handler({
    payload,
    env: io.env,
    ws,
    project,
    warn,
    race: run.race,
    confirm: run.confirm,
    now: io.now ?? (() => new Date()),
  });
}

/**
 * The workspace of the hook's directory, or undefined when memory is absent (the vault is configured
 * but not there: an unmounted drive). Misconfiguration (a corrupt config, an unknown backend) throws.
 */
async function openHookWorkspace(
  projectRoot: string,
  io: Pick<HookRunIo, 'env' | 'version' | 'background'>,
  warn: (line: string) => void,
): Promise<Workspace | undefined> {
  const { env, version, background } = io;
  try {
    return await Workspace.open({
      host: processHost(env),
      projectRoot,
      createRoot: false,
      index: {
        // Lexical, and from a running `agentm mcp`'s warm index when there is one (the same answer, in time).
        embeddings: false,
        // An answer's open: the snapshot's structure, not its checksum (the background refresh checks that).
        verify: 'structure',
        ...(version !== undefined ? { service: { version } } : {}),
        // Without one: caught up from the change log and the folders; a full walk runs detached when due.
        ...(background !== undefined ? { revalidate: background } : {}),
      },
      warn: (message) => warn(`agentm: warning: ${message}`),
    });
  } catch (error) {
    if (error instanceof StorageSelectionError && error.reason === 'no-vault-path') return undefined;
    throw error;
  }
}
