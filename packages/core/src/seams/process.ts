/**
 * The process seam (seed 000): a small, read-only, graceful-no-op view a process calls instead of
 * reaching into the memory engine. It composes public readers only — never a write path — so
 * "the seam is read-only" is literally true (backends are even resolved without creating their root).
 */
import { join } from 'node:path';
import type { BackendRegistry } from '../seam/registry.js';
import { processHost, type HostEnv } from '../config/host.js';
import { spacePath } from '../config/roots.js';
import { StorageSelectionError } from '../selection/errors.js';
import { resolveProject, type ProjectResolution } from '../routing/resolve-project.js';
import { resolveActivePlan } from '../state/active-plan.js';
import { harnessStateDir } from '../state/state-files.js';
import { basicPhaseRecall } from '../memory/basic-recall.js';
import { normalizePhase } from '../memory/budget.js';
import { slugify } from '../memory/notes/slugify.js';
import { AgentMError } from '../seam/errors.js';
import { printable } from '../seam/printable.js';
import { engineRecall } from './engine-recall.js';

/** The shared context of the three calls. Every key is optional. */
export interface ProcessContext {
  /** The project root (default: the process cwd). */
  readonly cwd?: string;
  /** The dev-loop phase (default `work`; unknown phases degrade to `work`). */
  readonly phase?: string;
  /** A named plan (`foo` → `PLAN-foo.md`), for `statePath`. */
  readonly plan?: string;
  /** Environment and home (default: this process). */
  readonly host?: HostEnv;
  readonly registry?: BackendRegistry;
  /** How the git origin URL is read (tests). */
  readonly gitRemote?: (projectRoot: string) => Promise<string | undefined>;
  /** Where `recallHere` reports a degradation (default: a line on stderr). */
  readonly warn?: (message: string) => void;
  /** The built index read worker, for a multi-threaded first build of the index (see `MemoryIndexOptions.workerScript`). */
  readonly indexWorkerScript?: string;
}

/** `which` of `statePath` other than `plan`/`progress`: a caller bug, not an absent-memory degrade. */
export class StatePathArgumentError extends AgentMError {
  constructor(which: unknown) {
    super(`statePath: which must be "plan" or "progress", got ${JSON.stringify(which)}`, { code: 'ESTATEPATHARG' });
  }
}

function resolveHere(context: ProcessContext | null | undefined): Promise<ProjectResolution> {
  const ctx = context ?? {};
  return resolveProject({
    host: ctx.host ?? processHost(),
    createRoot: false,
    ...(ctx.cwd !== undefined ? { cwd: ctx.cwd } : {}),
    ...(ctx.registry !== undefined ? { registry: ctx.registry } : {}),
    ...(ctx.gitRemote !== undefined ? { gitRemote: ctx.gitRemote } : {}),
  });
}

/**
 * The project, or undefined when memory is absent: no project slug, or the vault is selected but not
 * there (an unmounted drive). A corrupt config or an unregistered backend still throws (misconfiguration is loud).
 */
async function resolveIfPresent(context: ProcessContext | null | undefined): Promise<ProjectResolution | undefined> {
  try {
    const resolution = await resolveHere(context);
    return resolution.backend !== undefined && resolution.projectLocator !== undefined ? resolution : undefined;
  } catch (error) {
    if (error instanceof StorageSelectionError && error.reason === 'no-vault-path') return undefined;
    throw error;
  }
}

/**
 * Recall for the current context: phase recall from the memory engine (`phaseRecall` over the index,
 * which lives in the user cache dir — never the vault or the repo), scoped to the project plus global
 * notes, ranked for `query` when given (else by recency and the phase's kind weights), always-load
 * notes first, rendered as Markdown within `limit` tokens (default: the phase's budget). Memory absent →
 * `""`. When the index cannot be opened or brought up to date (an unwritable cache dir, a lock held
 * too long), it warns (`context.warn`, default stderr) and falls back to `basicPhaseRecall` (always-load
 * and project notes, newest first, no query). Never writes to the vault or the repo.
 */
export async function recallHere(
  context: ProcessContext | null | undefined,
  options: { query?: string | undefined; limit?: number | undefined } = {},
): Promise<string> {
  const resolution = await resolveIfPresent(context);
  if (resolution === undefined) return '';
  const backend = resolution.backend!;
  const config = resolution.selection?.choice.config ?? {};
  const phase = normalizePhase(context?.phase);
  const query = options.query?.trim() ? options.query : undefined;
  const memoryRoot = (backend as unknown as { root?: unknown }).root ?? resolution.selection?.root;
  try {
    if (typeof memoryRoot !== 'string' || memoryRoot === '')
      throw new AgentMError('the store has no root directory to key the memory index by', { code: 'ENOINDEXROOT' });
    return await engineRecall({
      backend,
      memoryRoot,
      config,
      host: resolution.host,
      phase,
      project: resolution.slug,
      query,
      limit: options.limit,
      workerScript: context?.indexWorkerScript,
    });
  } catch (error) {
    const warn = context?.warn ?? ((m: string) => void process.stderr.write(printable(`agentm: warning: ${m}\n`)));
    warn(
      `recall-here: the memory index could not be used (${(error as Error).message}); showing always-load and project notes newest first, without the query`,
    );
  }
  return basicPhaseRecall(backend, {
    projectLocator: resolution.projectLocator,
    projectSlug: resolution.slug,
    phase,
    limit: options.limit,
    env: resolution.host.env,
    memorySpace: spacePath('memory', config),
  });
}

/** A save candidate as `offerSaveHere` returns it: the caller's fields plus `project`, `phase` and `target`. */
export type OfferedCandidate = Record<string, unknown> & { project: unknown; target: string | null };

/**
 * What could be saved from this context, without saving it: `[candidate + project, phase, target]`.
 * The candidate is copied (never mutated; a non-object becomes `{body: candidate}`), `project` and
 * `phase` are set only where absent, `target` is the project's folder in the store. Memory absent, no
 * project, or an empty candidate → `[]`. Never writes.
 */
export async function offerSaveHere(
  context: ProcessContext | null | undefined,
  candidate: unknown,
): Promise<OfferedCandidate[]> {
  if (!candidate) return [];
  const resolution = await resolveIfPresent(context);
  if (resolution === undefined) return [];
  const copy: Record<string, unknown> =
    typeof candidate === 'object' && !Array.isArray(candidate)
      ? { ...(candidate as Record<string, unknown>) }
      : { body: candidate };
  // Propose only what `save` accepts: a free-text slug becomes a valid one; none left, nothing to offer.
  if ('slug' in copy) {
    const slug = typeof copy['slug'] === 'string' ? slugify(copy['slug']) : '';
    if (slug === '') return [];
    copy['slug'] = slug;
  }
  if (!('project' in copy)) copy['project'] = resolution.slug;
  if (context?.phase !== undefined && context.phase !== '' && !('phase' in copy)) copy['phase'] = context.phase;
  copy['target'] = resolution.projectLocator?.key ?? null;
  return [copy as OfferedCandidate];
}

/**
 * The path of the active plan (`which = "plan"`) or progress file: the routed harness state directory
 * (the vault's `_harness/` when a synced backend holds state, else `<repo>/.harness/`) joined with the
 * active pair (explicit `context.plan` → `.harness/active-plan` → `PLAN.md`). Never undefined. `which`
 * other than plan/progress throws `StatePathArgumentError` (checked first); a dangling or unsafe
 * marker and selection errors propagate.
 */
export async function statePath(
  context: ProcessContext | null | undefined,
  which: 'plan' | 'progress',
): Promise<string> {
  if (which !== 'plan' && which !== 'progress') throw new StatePathArgumentError(which);
  const resolution = await resolveHere(context);
  const active = await resolveActivePlan(resolution, context?.plan);
  const dir = await harnessStateDir(resolution);
  return join(dir, which === 'plan' ? active.plan : active.progress);
}
