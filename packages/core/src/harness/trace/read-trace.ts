import { parseProgress } from '../observations/progress-format.js';
import { parsePlan, type PlanDocument } from '../plan/plan-document.js';
import type { PlanFiles } from '../reconciler/plan-files.js';
import { assembleTrace, type Trace } from './trace.js';

/** A plan's trace from its files; `found` is false when there is neither a plan nor a progress log. */
export async function readTrace(
  files: PlanFiles,
): Promise<{ trace: Trace; doc: PlanDocument | undefined; found: boolean }> {
  const snap = await files.readPlan();
  const progress = await files.readProgress();
  const doc = snap ? parsePlan(snap.text) : undefined;
  return {
    trace: assembleTrace(files.name, doc, parseProgress(progress)),
    doc,
    found: snap !== undefined || progress !== '',
  };
}
