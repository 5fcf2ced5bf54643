import type * as vscode from 'vscode';
import type { CheckStatus, StepStatus } from '@agentm/core';

/**
 * The data the views and commands need, behind small interfaces. `wiring.ts` builds them from core
 * (one file per source under `src/sources/`); views and commands never import core's engine directly.
 */
export interface Sources {
  readonly doctor: Doctor;
  readonly plans: PlanSource;
  readonly planRunner: PlanRunner;
  readonly recall: RecallSource;
  readonly notes: NoteSaver;
  readonly maintenance: MemoryMaintenance;
}

// ------------------------------------------------------------------------------------------ doctor

/** Which backend is selected and whether it can be produced (DESIGN §6 `storagePreview`). */
export interface StoragePreview {
  readonly status: CheckStatus;
  /** Protocol name (`vault`, `device-local`, …); undefined when selection itself failed. */
  readonly protocol: string | undefined;
  /** One line naming the backend, where its choice came from, and on trouble the fix. */
  readonly line: string;
  /** The store root the vault lock is keyed on, when the backend takes the machine-wide vault lock. */
  readonly lockedStoreRoot: string | undefined;
}

export interface DoctorRow {
  readonly check: string;
  readonly status: CheckStatus;
  readonly line: string;
}

export interface Doctor {
  /** Never throws and never writes: a broken setup is `status: 'fail'` with the fix in `line`. */
  preview(): Promise<StoragePreview>;
  /** The full check, one row per concern (storage, lock, …). Never throws. */
  run(): Promise<readonly DoctorRow[]>;
}

// -------------------------------------------------------------------------------------------- plans

export interface StepView {
  readonly id: string;
  readonly title: string;
  readonly status: StepStatus;
  /** Ids of the steps this one waits for (`[after:: a, b]`). */
  readonly after: readonly string[];
  readonly attempt: number;
  /** Zero-based line of the step in the PLAN file, to reveal it. */
  readonly line: number;
  /** The step's `[cmd:: …]`; a step without one is a goal for the model (its title). */
  readonly cmd: string | undefined;
  /** The latest failure the progress log records for the step (an `error` entry), if any. */
  readonly lastFailure: StepFailure | undefined;
}

export interface StepFailure {
  readonly attempt: number;
  readonly when: string;
  /** The entry's text, whole (the exit code and output tail, or the model's stop reason). */
  readonly reason: string;
}

export interface ProgressEntryView {
  /** Stable id (the entry's fingerprint). */
  readonly id: string;
  /** As written in the progress file (ISO time or date). */
  readonly when: string;
  readonly kind: string;
  /** The step it is about, or `plan:<name>` for the plan itself. */
  readonly step: string;
  readonly text: string;
}

export interface PlanView {
  readonly name: string;
  readonly active: boolean;
  readonly goal: string | undefined;
  /** What the plan is about, for its tree label: the frontmatter `goal`, else the first heading, else the name. */
  readonly title: string;
  readonly status: string;
  readonly steps: readonly StepView[];
  /** Latest first, a handful at most. */
  readonly progress: readonly ProgressEntryView[];
  readonly planUri: vscode.Uri;
  readonly progressUri: vscode.Uri | undefined;
}

export type PlanState =
  | { readonly kind: 'noProject'; readonly reason: string }
  | { readonly kind: 'noPlan'; readonly project: string }
  | { readonly kind: 'ready'; readonly project: string; readonly plans: readonly PlanView[] };

export interface PlanSource {
  /** Fires (debounced by the source) when a PLAN, progress or marker file changes on disk. */
  readonly onDidChange: vscode.Event<void>;
  /** The project's plans as they are on disk now. Throws a typed error on misconfiguration. */
  read(): Promise<PlanState>;
  /** Binds the project to `name` (writes `.harness/active-plan`). */
  switchTo(name: string): Promise<void>;
}

/** Reports steps of long work to the window; `increment` is in percent. */
export interface WorkProgress {
  report(step: { message?: string; increment?: number }): void;
}

/** How a run ended, with what a person needs to act on a failure. */
export interface RunOutcome {
  /** One line: `done (2/2 steps done)`, `failed (…; failed: check — run "AgentM: Retry failed step")`. */
  readonly summary: string;
  readonly ended: 'done' | 'failed' | 'stopped' | 'unfinished';
  /** The plan's failed steps, each with the reason its latest failure logged. */
  readonly failed: readonly { readonly id: string; readonly title: string; readonly reason: string | undefined }[];
  /** A failure came from the model: none was available, or its endpoint refused (the fix is the model settings). */
  readonly modelCause: boolean;
}

export interface PlanRunner {
  /** Runs the plan until it is done, fails, or `token` is cancelled. */
  run(plan: string, progress: WorkProgress, token: vscode.CancellationToken): Promise<RunOutcome>;
  stop(plan: string): Promise<void>;
  /** `failed → ready` with the attempt bumped. */
  retry(plan: string, stepId: string): Promise<void>;
}

// ------------------------------------------------------------------------------------------- memory

export interface RecallHit {
  readonly title: string;
  readonly kind: string;
  readonly uri: vscode.Uri;
  readonly score: number;
  readonly similarity: number;
  readonly recency: number;
  readonly snippet: string;
  /** When the memory was last updated (reinforced, for a belief). */
  readonly updatedMs: number;
}

export type RecallState =
  | { readonly kind: 'noProject'; readonly reason: string }
  | { readonly kind: 'memoryEmpty' }
  | { readonly kind: 'ready'; readonly hits: readonly RecallHit[] };

export interface RecallSource {
  readonly onDidChange: vscode.Event<void>;
  /** Another project, backend or memory root: earlier search results no longer apply. */
  readonly onDidChangeScope: vscode.Event<void>;
  /** What memory holds for `phase` in this project (phase recall). */
  phase(phase: string, token: vscode.CancellationToken): Promise<RecallState>;
  /** Search as the user types; resolves fast enough to call on every keystroke (debounced by the caller). */
  search(query: string, token: vscode.CancellationToken): Promise<readonly RecallHit[]>;
  /** A recall as an agent asks for it: this project's memories (and global ones) or every project's. */
  query(request: RecallRequest, token: vscode.CancellationToken): Promise<RecallAnswer>;
}

export interface RecallRequest {
  readonly text: string;
  /** `project`: this project's and global memories; `all`: every project's. */
  readonly scope: 'project' | 'all';
  /** Results wanted (default: the `agentm.recall.maxResults` setting). */
  readonly limit?: number | undefined;
  /** Only these kinds (memory types, record kinds, `episode`). */
  readonly kinds?: readonly string[] | undefined;
}

export interface RecallAnswer {
  readonly hits: readonly RecallHit[];
  /** The project searched (undefined: every project, or no project here). */
  readonly project: string | undefined;
  /** `hybrid` (words and vectors), `lexical` or `recency`. */
  readonly mode: string;
  /** Degradations (an embedding provider that failed: recall answered lexically). */
  readonly warnings: readonly string[];
}

export interface NoteDraft {
  readonly kind: string;
  readonly slug: string;
  readonly tags: readonly string[];
  readonly body: string;
}

export interface NoteSaver {
  /** The kinds offered in the quick pick (agentm's vocabulary, from `.agentm-config.json` when it has one). */
  kinds(): Promise<{ readonly types: readonly string[]; readonly recordKinds: readonly string[] }>;
  /** Core's message when `kind` is neither in the vocabulary nor a retired name of one (`decision` → convention). */
  validateKind(kind: string): Promise<string | undefined>;
  /**
   * A message naming what is wrong and how to fix it, or undefined when `slug` is acceptable. With
   * `kind`, also refuses a slug whose note already exists (saving never overwrites).
   */
  validateSlug(slug: string, kind?: string): Promise<string | undefined>;
  /** Same for the comma-separated tag list. */
  validateTags(tags: string): string | undefined;
  /** Where a note of `kind` named `slug` would go, relative to the memory root. Throws core's validation errors. */
  target(kind: string, slug: string): Promise<string>;
  /** Writes the note in agentm's format (never overwrites); resolves with where it went. */
  save(draft: NoteDraft): Promise<{ readonly uri: vscode.Uri }>;
}

export interface MemoryMaintenance {
  /** Brings the derived index up to date; resolves with a short result ("indexed 12 notes"). */
  reindex(progress: WorkProgress, token: vscode.CancellationToken): Promise<string>;
  consolidate(progress: WorkProgress, token: vscode.CancellationToken): Promise<string>;
}
