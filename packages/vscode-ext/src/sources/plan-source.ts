import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  effectiveStatus,
  listPlans,
  localHarnessDir,
  normalizePlanName,
  parsePlan,
  parseProgress,
  planPair,
  readStateFileWithHash,
  resolveActivePlan,
  type Observation,
  type ProjectResolution,
  type StateLocation,
} from '@agentm/core';
import { atomicWrite, contentHash } from '@agentm/core/protocol';
import { NothingToDoError } from '../errors';
import { lastFailures, planTitle } from './plan-facts';
import type { ProjectTracker } from './project-tracker';
import type { PlanSource, PlanState, PlanView, ProgressEntryView } from './types';

/** Progress entries shown under a plan, newest first. */
export const PROGRESS_ENTRIES = 8;

/** `PLAN.md` → `PLAN`, `PLAN-build.md` → `build` (the name `switchTo` and the run commands take). */
export function planNameOfFile(file: string): string {
  return normalizePlanName(file) ?? 'PLAN';
}

function fileUri(location: StateLocation, file: string): vscode.Uri {
  return vscode.Uri.file(location.kind === 'backend' ? join(location.path, file) : join(location.dir, file));
}

function entryView(o: Observation): ProgressEntryView {
  return {
    id: contentHash(`${o.time}|${o.kind}|${o.step}|${o.attempt}|${o.actor}|${o.text}`).slice(0, 16),
    when: o.time,
    kind: o.kind,
    step: o.step,
    text: o.text,
  };
}

async function planView(
  project: ProjectResolution,
  location: StateLocation,
  file: string,
  active: boolean,
): Promise<PlanView> {
  const pair = planPair(normalizePlanName(file));
  const [plan, progress] = await Promise.all([
    readStateFileWithHash(project, file),
    readStateFileWithHash(project, pair.progress),
  ]);
  const doc = parsePlan(plan.content);
  const log = parseProgress(progress.content);
  const failures = lastFailures(log);
  const steps = doc.steps.map((step) => {
    const status = effectiveStatus(doc, step);
    return {
      id: step.id,
      title: step.title,
      status: status === 'unknown' ? ('pending' as const) : status,
      after: step.after,
      attempt: step.attempt,
      line: step.line,
      cmd: step.cmd,
      lastFailure: failures.get(step.id),
    };
  });
  const entries = log.slice(-PROGRESS_ENTRIES).reverse().map(entryView);
  const name = planNameOfFile(file);
  return {
    name,
    active,
    goal: doc.meta.goal,
    title: planTitle(doc, name),
    status: doc.meta.status ?? 'open',
    steps,
    progress: entries,
    planUri: fileUri(location, file),
    progressUri: progress.hash === null ? undefined : fileUri(location, pair.progress),
  };
}

/**
 * The project's plans through core's routing: `listPlans` in the routed state location (the vault's
 * `<project>/_harness/` when synced, else the repo's `.harness/`), the active one from
 * `resolveActivePlan` (explicit marker, else PLAN.md; a dangling marker is an error naming the fix),
 * each parsed with `parsePlan` and its progress with `parseProgress`. Fires `onDidChange` from the
 * tracker's (debounced) watchers.
 */
export class CorePlanSource implements PlanSource {
  readonly onDidChange: vscode.Event<void>;

  constructor(private readonly tracker: ProjectTracker) {
    this.onDidChange = (listener, thisArg, disposables) => {
      const a = tracker.onDidChangeState(listener, thisArg);
      const b = tracker.onDidChangeWorkspace(listener, thisArg);
      const both = vscode.Disposable.from(a, b);
      disposables?.push(both);
      return both;
    };
  }

  async read(): Promise<PlanState> {
    const ws = await this.tracker.current();
    if (!ws.project || !ws.location) return { kind: 'noProject', reason: ws.noProject ?? 'no project' };
    const files = await listPlans(ws.project);
    if (files.length === 0) return { kind: 'noPlan', project: ws.project.slug! };
    const active = await resolveActivePlan(ws.project);
    const plans = await Promise.all(
      files.map((file) => planView(ws.project!, ws.location!, file, file === active.plan)),
    );
    return { kind: 'ready', project: ws.project.slug!, plans };
  }

  /**
   * Binds the project to plan `name`: writes `.harness/active-plan` in the repo (atomic write; agentm and
   * its agents read it), or removes it for the singleton `PLAN`. Refuses a plan that does not exist.
   */
  async switchTo(name: string): Promise<void> {
    const ws = await this.tracker.current();
    if (!ws.project) throw new NothingToDoError(`cannot switch plans: ${ws.noProject}`);
    const wanted = normalizePlanName(name);
    const file = planPair(wanted).plan;
    const files = await listPlans(ws.project);
    if (!files.includes(file)) {
      throw new NothingToDoError(
        `project '${ws.project.slug}' has no plan '${name}' (${file}); its plans: ${files.map(planNameOfFile).join(', ') || 'none yet'}`,
      );
    }
    const marker = join(localHarnessDir(ws.project.projectRoot), 'active-plan');
    if (wanted === undefined)
      await unlink(marker).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
    else {
      await mkdir(localHarnessDir(ws.project.projectRoot), { recursive: true });
      await atomicWrite(marker, `${wanted}\n`);
    }
  }
}
