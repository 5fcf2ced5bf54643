/**
 * The process seam (seed 000): a small, read-only, graceful-no-op view a process calls instead of
 * reaching into the memory engine. It composes public readers only — never a write path — so
 * "the seam is read-only" is literally true (backends are even resolved without creating their root).
 */
import { join } from 'node:path';
import type { BackendRegistry } from '../seam/registry.js';
import { AgentMError, EXIT_USAGE } from '../seam/errors.js';
import { processHost, type HostEnv } from '../config/host.js';
import { vaultPath } from '../config/roots.js';
import { StorageSelectionError } from '../selection/errors.js';
import type { ProjectResolution } from '../routing/resolve-project.js';
import { resolveActivePlan } from '../state/active-plan.js';
import { harnessStateDir } from '../state/state-files.js';
import { basicPhaseRecall } from '../memory/recall/basic-recall.js';
import { normalizePhase } from '../memory/recall/budget.js';
import { Workspace } from '../workspace/workspace.js';
import { slugify } from '../memory/notes/slugify.js';
import { printable } from '../seam/printable.js';

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
  /**
   * Starts the index's full walk in the background (see `WorkspaceOptions.index.revalidate`): `recallHere`
   * then catches up from the change log and the folders instead of walking every note. Absent: it walks.
   */
  readonly revalidate?: () => void;
}

/** `which` of `statePath` other than `plan`/`progress`: a caller bug, not an absent-memory degrade. */
export class StatePathArgumentError extends AgentMError {
  override readonly exitCode: number = EXIT_USAGE;
  constructor(which: unknown) {
    super(`statePath: which must be "plan" or "progress", got ${JSON.stringify(which)}`, { code: 'ESTATEPATHARG' });
  }
}

/**
 * The workspace of the context: read-only (no store root is created), its index lexical (hook-grade
 * recall makes no network call), the repository its `cwd`.
 */
function workspaceHere(context: ProcessContext | null | undefined): Promise<Workspace> {
  const ctx = context ?? {};
  return Workspace.open({
    host: ctx.host ?? processHost(),
    projectRoot: ctx.cwd ?? process.cwd(),
    createRoot: false,
    index: {
      embeddings: false,
      workerScript: ctx.indexWorkerScript,
      ...(ctx.revalidate !== undefined ? { revalidate: ctx.revalidate, verify: 'structure' as const } : {}),
    },
    ...(ctx.registry !== undefined ? { registry: ctx.registry } : {}),
    ...(ctx.gitRemote !== undefined ? { gitRemote: ctx.gitRemote } : {}),
  });
}

/**
 * The workspace and its project, or undefined when memory is absent: no project slug, or the vault is
 * selected but not there (an unmounted drive). A corrupt config or an unregistered backend still throws
 * (misconfiguration is loud).
 */
async function presentHere(
  context: ProcessContext | null | undefined,
): Promise<{ ws: Workspace; resolution: ProjectResolution } | undefined> {
  try {
    const ws = await workspaceHere(context);
    const resolution = await ws.project();
    return resolution?.backend !== undefined && resolution.projectLocator !== undefined
      ? { ws, resolution }
      : undefined;
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
  const here = await presentHere(context);
  if (here === undefined) return '';
  const { ws, resolution } = here;
  const phase = normalizePhase(context?.phase);
  const query = options.query?.trim() ? options.query : undefined;
  try {
    if (ws.localRoot === undefined && ws.backend.storeId === undefined)
      throw new AgentMError('the store has no root directory or id to key the memory index by', {
        code: 'ENOINDEXROOT',
      });
    return (await ws.phaseRecall({ phase, project: resolution.slug, query, limit: options.limit })).markdown;
  } catch (error) {
    const warn = context?.warn ?? ((m: string) => void process.stderr.write(printable(`agentm: warning: ${m}\n`)));
    warn(
      `recall-here: the memory index could not be used (${(error as Error).message}); showing always-load and project notes newest first, without the query`,
    );
  }
  return basicPhaseRecall(ws.backend, {
    projectLocator: resolution.projectLocator,
    projectSlug: resolution.slug,
    phase,
    limit: options.limit,
    env: ws.host.env,
    memorySpace: ws.memorySpace,
  });
}

/** A save candidate as `offerSaveHere` returns it: the caller's fields plus `project`, `phase` and `target`. */
export type OfferedCandidate = Record<string, unknown> & { project: unknown; target: string | null };

/** Python's falsiness, which agentm's `if not candidate` applies: also `{}` and `[]`. */
function isEmptyCandidate(candidate: unknown): boolean {
  if (!candidate) return true;
  if (Array.isArray(candidate)) return candidate.length === 0;
  return typeof candidate === 'object' && Object.keys(candidate).length === 0;
}

/**
 * What could be saved from this context, without saving it: `[candidate + project, phase, target]`.
 * The candidate is copied (never mutated; a non-object becomes `{body: candidate}`), `project` and
 * `phase` are set only where absent, `target` is the project's folder in the store. An empty
 * candidate (`{}`, `[]`, `""`, null), no project, or no vault path (agentm's `is_available()`: a
 * device-local store offers nothing) → `[]`. Never writes.
 */
export async function offerSaveHere(
  context: ProcessContext | null | undefined,
  candidate: unknown,
): Promise<OfferedCandidate[]> {
  if (isEmptyCandidate(candidate)) return [];
  const here = await presentHere(context);
  if (here === undefined) return [];
  const { ws, resolution } = here;
  if ((await vaultPath(ws.host, ws.config)) === undefined) return [];
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
  const resolution = (await (await workspaceHere(context)).project())!; // a cwd always gives a resolution
  const active = await resolveActivePlan(resolution, context?.plan);
  const dir = await harnessStateDir(resolution);
  return join(dir, which === 'plan' ? active.plan : active.progress);
}
