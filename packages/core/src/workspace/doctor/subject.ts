import type { SelectedBackend } from '../../selection/select-backend.js';
import type { MemoryIndex } from '../../memory/indexing/memory-index.js';
import type { WorkspaceContext } from '../context.js';
import type { PlanListing } from '../plan-listing.js';

/**
 * What the doctor reads of a workspace (the `Workspace` implements it; the doctor imports this type,
 * not the class, so nothing loops back).
 */
export interface DoctorSubject extends WorkspaceContext {
  readonly protocol: string;
  readonly selection: SelectedBackend | undefined;
  readonly projectRoot: string | undefined;
  index(): Promise<MemoryIndex>;
  listPlans(options?: { readonly project?: string; readonly summaries?: boolean }): Promise<PlanListing>;
}
