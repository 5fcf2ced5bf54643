// THE ONE FILE THAT CONNECTS THE EXTENSION TO CORE: every data source the views and commands use, one
// file each under src/sources/, sharing one ProjectTracker (core's workspace of this window, rebuilt there
// when its config changes, and the watchers) and one IndexService (the workspace's memory index, opened
// lazily in the extension's global storage).
import type * as vscode from 'vscode';
import { createDoctor } from './sources/doctor';
import { IndexService } from './sources/index-service';
import { CoreMemoryMaintenance } from './sources/memory-maintenance';
import { CoreNoteSaver } from './sources/note-saver';
import { CorePlanRunner } from './sources/plan-runner';
import { CorePlanSource } from './sources/plan-source';
import { ProjectTracker } from './sources/project-tracker';
import { CoreRecallSource } from './sources/recall-source';
import type { Sources } from './sources/types';

export interface Wired {
  readonly sources: Sources;
  readonly tracker: ProjectTracker;
  readonly indexes: IndexService;
  readonly runner: CorePlanRunner;
  /** Watchers, emitters and the index: disposed on deactivate. */
  readonly disposables: readonly vscode.Disposable[];
}

export interface WiringContext {
  /** The extension's global storage folder (`context.globalStorageUri.fsPath`): the index lives there. */
  readonly storageDir: string;
  readonly secrets: vscode.SecretStorage;
  /** Background trouble (an index update that failed) goes here: the status bar. */
  readonly onBackgroundError: (source: string, error: unknown) => void;
}

/** Builds every data source. Nothing is read yet: sources resolve on first use (after the views show). */
export function createSources(context: WiringContext): Wired {
  const tracker = new ProjectTracker({ storageDir: context.storageDir, secrets: context.secrets });
  const indexes = new IndexService(tracker, (error) => context.onBackgroundError('memory index', error));
  const runner = new CorePlanRunner(tracker, context.secrets);
  const sources: Sources = {
    doctor: createDoctor(tracker),
    plans: new CorePlanSource(tracker),
    planRunner: runner,
    recall: new CoreRecallSource(tracker, indexes),
    notes: new CoreNoteSaver(tracker, indexes),
    maintenance: new CoreMemoryMaintenance(tracker, indexes),
  };
  return { sources, tracker, indexes, runner, disposables: [runner, indexes, tracker] };
}
