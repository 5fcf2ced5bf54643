import { join } from 'node:path';
import { LocalPlanFiles } from '../harness/reconciler/local-plan-files.js';
import type { PlanFiles } from '../harness/reconciler/plan-files.js';
import { defaultLockRoot } from '../protocol/vault-lock.js';
import type { CliContext } from './context.js';
import { CliError, EXIT_USAGE } from './errors.js';

export interface ResolvedPlanFiles {
  readonly files: PlanFiles;
  /** `PLAN` for the singleton pair, else the plan's name. */
  readonly name: string;
  /** Where shell steps run and LLM tools may read and write. */
  readonly projectRoot: string;
}

/**
 * A plan name as DESIGN §12 reads it: trimmed, one trailing `.md` and one leading `PLAN-` dropped;
 * empty or `PLAN` → the singleton pair (`''`). Unsafe names (`.`, `..`, `/`, `\`, NUL) are a usage error.
 */
export function normalizePlanName(raw: string | undefined): string {
  let name = (raw ?? '').trim();
  if (name.endsWith('.md')) name = name.slice(0, -3);
  if (name.startsWith('PLAN-')) name = name.slice(5);
  if (name === '' || name === 'PLAN') return '';
  if (name === '.' || name === '..' || /[/\\\0]/.test(name)) {
    throw new CliError(`unsafe plan name ${JSON.stringify(raw)}: a plan name must be a single path component (no "/", "\\" or NUL, not "." or "..")`, EXIT_USAGE);
  }
  return name;
}

/**
 * Where the CLI's harness commands find a plan and its progress log. For now: the repo-local pair in
 * `<cwd>/.harness/` (`PLAN.md`/`progress.md`, or `PLAN-<name>.md`/`progress-<name>.md`), written under
 * the lock keyed on that directory. This is the one place to route elsewhere (the vault's `_harness/`
 * when a synced backend is selected, the active-plan marker).
 */
export async function resolvePlanFiles(ctx: CliContext, planName?: string): Promise<ResolvedPlanFiles> {
  const name = normalizePlanName(planName);
  const dir = join(ctx.io.cwd, '.harness');
  const [plan, progress] = name === '' ? ['PLAN.md', 'progress.md'] : [`PLAN-${name}.md`, `progress-${name}.md`];
  const files = new LocalPlanFiles(join(dir, plan), join(dir, progress), { lock: { lockRoot: defaultLockRoot(ctx.io.env) } });
  return { files, name: files.name, projectRoot: ctx.io.cwd };
}
