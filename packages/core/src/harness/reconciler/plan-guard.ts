import { StalePlanError } from '../errors.js';
import type { PlanFiles } from './plan-files.js';

/**
 * `files` for a change decided on the plan as someone saw it (hash `shown`): every read of the plan —
 * the first one and any re-read after a lost compare-and-swap — refuses with `StalePlanError` when the
 * plan is no longer those bytes. A view that acts through it never writes over what an agent wrote
 * after the view read the plan; the progress log and the commit are the files' own.
 */
export function expectPlan(files: PlanFiles, shown: string): PlanFiles {
  return {
    name: files.name,
    planLabel: files.planLabel,
    progressLabel: files.progressLabel,
    readProgress: () => files.readProgress(),
    commit: (change) => files.commit(change),
    async readPlan() {
      const snap = await files.readPlan();
      if (snap?.hash !== shown) throw new StalePlanError(files.planLabel, shown, snap?.hash);
      return snap;
    },
  };
}
