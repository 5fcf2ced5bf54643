import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { NO_PROVIDER_HINT } from '../../providers/settings.js';
import { HarnessError } from '../errors.js';
import { CommandSyntaxError, splitCommand } from '../command-exec/shell-words.js';
import type { PlanDocument, PlanStep } from '../plan/plan-document.js';
import { dependentsOf } from '../plan/plan-graph.js';

/** One step a run would dispatch that cannot run as things are. */
export interface PreflightProblem {
  readonly step: string;
  readonly title: string;
  readonly problem: string;
}

/** A run refused before it claimed anything: every step that cannot run, with what to do about each. */
export class PreflightError extends HarnessError {
  readonly plan: string;
  readonly problems: readonly PreflightProblem[];
  constructor(plan: string, problems: readonly PreflightProblem[]) {
    super(
      `plan ${plan} was not started: ${problems.length} step(s) cannot run:\n` +
        problems.map((p) => `  - ${p.step} (${p.title}): ${p.problem}`).join('\n') +
        '\nNothing was claimed; fix these and run again.',
      { code: 'EPREFLIGHT' },
    );
    this.plan = plan;
    this.problems = problems;
  }
}

/** Where `spawn` looks for a program when the environment has no PATH (glibc's and libuv's default). */
const DEFAULT_PATH = '/usr/bin:/bin';

/** Whether `path` is a file this process may execute. */
function executable(path: string): 'ok' | 'missing' | 'not-executable' {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info || info.isDirectory()) return 'missing';
  if (process.platform === 'win32') return 'ok';
  try {
    accessSync(path, constants.X_OK);
    return 'ok';
  } catch {
    return 'not-executable';
  }
}

/**
 * Where `program` would be found when a command runs (`shell: false`, so exactly as `spawn` looks): a
 * name with a slash is a path (relative to the repository); a bare name is searched on the command's
 * `PATH` (with `PATHEXT` on Windows). Undefined (and why) when it is not there.
 */
export function findProgram(
  program: string,
  options: { readonly cwd: string; readonly env: Readonly<Record<string, string | undefined>> },
): { readonly path: string } | { readonly problem: string } {
  if (program.includes('/') || (process.platform === 'win32' && program.includes('\\'))) {
    const path = isAbsolute(program) ? program : resolve(options.cwd, program);
    const found = executable(path);
    if (found === 'ok') return { path };
    return {
      problem:
        found === 'missing'
          ? `${program} does not exist (looked at ${path})`
          : `${program} is not executable (chmod +x ${path})`,
    };
  }
  // Without a PATH, spawn (libuv's execvp) searches the system's default path; so does this.
  const searchPath = options.env['PATH'] ?? options.env['Path'] ?? (process.platform === 'win32' ? '' : DEFAULT_PATH);
  const dirs = searchPath.split(delimiter).filter((d) => d !== '');
  const exts = process.platform === 'win32' ? ['', ...(options.env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  let notExecutable: string | undefined;
  for (const dir of dirs)
    for (const ext of exts) {
      const path = join(resolve(options.cwd, dir), program + ext);
      const found = executable(path);
      if (found === 'ok') return { path };
      if (found === 'not-executable') notExecutable ??= path;
    }
  if (notExecutable) return { problem: `${program} is not executable (chmod +x ${notExecutable})` };
  return { problem: `program "${program}" is not on the PATH the command gets (install it, or name it by its path)` };
}

/** Steps that are waiting to run and do not wait on a failed or cancelled step (those would never run). */
function stepsToDispatch(doc: PlanDocument): PlanStep[] {
  const dead = new Set(doc.steps.filter((s) => s.stored === 'failed' || s.stored === 'cancelled').map((s) => s.id));
  const doomed = dependentsOf(doc.steps, (id) => dead.has(id));
  return doc.steps.filter((s) => (s.stored === 'pending' || s.stored === 'blocked') && !doomed.has(s.id));
}

/**
 * What a run of `doc` would dispatch and cannot: a `cmd::` step whose program is not found (or whose
 * command cannot be split), a step for the model when there is no model. A group (sub-steps, no
 * command) needs nothing. Pure apart from looking for programs on disk. Empty: the run can start.
 */
export function preflightPlan(
  doc: PlanDocument,
  options: {
    readonly projectRoot: string;
    /** The environment the plan's commands get (its PATH is where programs are looked for). */
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly hasModel: boolean;
  },
): PreflightProblem[] {
  const problems: PreflightProblem[] = [];
  // One look on disk per program, not per step: a long plan names the same few programs many times.
  const programs = new Map<string, ReturnType<typeof findProgram>>();
  for (const step of stepsToDispatch(doc)) {
    const problem = (text: string) => problems.push({ step: step.id, title: step.title, problem: text });
    if (step.cmd) {
      let argv: string[];
      try {
        argv = splitCommand(step.cmd);
      } catch (error) {
        if (error instanceof CommandSyntaxError) {
          problem(error.message);
          continue;
        }
        throw error;
      }
      if (argv.length === 0) {
        problem('its cmd:: is empty');
        continue;
      }
      let found = programs.get(argv[0]!);
      if (found === undefined) {
        found = findProgram(argv[0]!, { cwd: options.projectRoot, env: options.env });
        programs.set(argv[0]!, found);
      }
      if ('problem' in found) problem(found.problem);
    } else if (step.children.length === 0 && !options.hasModel) {
      problem(`needs a chat model: ${NO_PROVIDER_HINT}`);
    }
  }
  return problems;
}
