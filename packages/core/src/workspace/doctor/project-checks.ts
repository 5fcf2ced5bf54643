import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DoctorCheck } from './check.js';
import { messageOf } from './setup-checks.js';
import type { DoctorSubject } from './subject.js';

/**
 * The project of the workspace's repository: its slug and where it comes from, and where its plans
 * live; a repository without one is told how to bind it. Undefined without a repository (or for a
 * folder that is no repository: nothing to bind).
 */
export async function projectCheck(ws: DoctorSubject): Promise<DoctorCheck | undefined> {
  const root = ws.projectRoot;
  if (root === undefined) return undefined;
  try {
    const project = await ws.project();
    if (project?.slug !== undefined) {
      const listing = await ws.listPlans({ summaries: false });
      return {
        id: 'project',
        status: 'ok',
        message: `${root} is project '${project.slug}' (from ${project.slugSource}); plans in ${listing.stateDir}`,
      };
    }
  } catch (error) {
    return { id: 'project', status: 'fail', message: messageOf(error) };
  }
  if (!existsSync(join(root, '.git')) && !existsSync(join(root, '.harness'))) return undefined;
  return {
    id: 'project',
    status: 'warn',
    message:
      `${root} is not bound to a project (no .harness/project.json, no github.repo, no git origin): ` +
      'its plans stay in .harness/ and its notes are not grouped',
    fix: 'Bind it with: agentm init --project <slug>',
  };
}

/**
 * The plans of the repository: a `.harness/active-plan` that does not resolve fails (nothing would run
 * the plan the person means); an active plan whose last run failed warns, naming the failed steps and
 * how to retry; named plans without an active one are a hint naming how to pick one. Undefined without
 * a repository or plans.
 */
export async function plansCheck(ws: DoctorSubject): Promise<DoctorCheck | undefined> {
  if (ws.projectRoot === undefined) return undefined;
  let listing;
  try {
    listing = await ws.listPlans();
  } catch (error) {
    return { id: 'plans', status: 'fail', message: messageOf(error) };
  }
  if (listing.bindingError) return { id: 'plans', status: 'fail', message: listing.bindingError };
  if (listing.plans.length === 0) return undefined;
  const active = listing.plans.find((p) => p.active);
  const names = listing.plans.map((p) => p.name).join(', ');
  if (!active)
    return {
      id: 'plans',
      status: 'info',
      message: `${listing.plans.length} plan(s) (${names}), none active: PLAN.md does not exist and no plan is switched to`,
      fix: `make one active: agentm switch <name> (or run it by name: agentm run --plan <name>)`,
    };
  const label = active.title === active.name ? `'${active.name}'` : `'${active.name}' (${active.title})`;
  const failed = active.counts?.['failed'] ?? 0;
  if (active.terminal === 'failed' || failed > 0) {
    const plan = active.name === 'PLAN' ? '' : ` --plan ${active.name}`;
    return {
      id: 'plans',
      status: 'warn',
      message: `the active plan ${label} has ${failed} failed step(s)${active.terminal === 'failed' ? ': its run failed' : ''}`,
      fix: `see why with: agentm trace${plan}; retry with: agentm retry${plan}`,
    };
  }
  const settled = active.terminal ? `, ${active.terminal}` : '';
  return {
    id: 'plans',
    status: 'ok',
    message: `${listing.plans.length} plan(s); active: ${label}${settled}`,
  };
}

/** The memory index of the store: built or not, how many documents, where (never builds it). */
export async function indexCheck(ws: DoctorSubject): Promise<DoctorCheck | undefined> {
  if (ws.localRoot === undefined) return undefined;
  let index;
  try {
    index = await ws.index();
  } catch (error) {
    return { id: 'index', status: 'warn', message: `cannot be opened: ${messageOf(error)}` };
  }
  if (index.loadStatus === 'missing')
    return {
      id: 'index',
      status: 'info',
      message: `not built yet (${index.dir})`,
      fix: 'the first recall builds it, or agentm reindex',
    };
  if (index.loadStatus !== 'loaded')
    return {
      id: 'index',
      status: 'warn',
      message: `${index.loadStatus} (${index.loadDetail})`,
      fix: 'the next recall rebuilds it, or agentm reindex --full',
    };
  return {
    id: 'index',
    status: 'ok',
    message: `${index.state.docs.size} document(s) from ${index.state.files.size} file(s) (${index.dir})`,
  };
}
