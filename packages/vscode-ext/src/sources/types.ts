import type * as vscode from 'vscode';
import type { CheckStatus } from '@agentm/core/config';
import type { DoctorCheck, NoteFiling, NoteScope, StepUpdateOutcome, WorkspaceStepUpdate } from '@agentm/core';
import type { StepStatus } from '@agentm/core/harness';

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

/** What the status bar shows: the workspace's quick checks (storage, agreement) and where the lock is. */
export interface StorageState {
  /** The worst of `checks` (a hint counts as ok). */
  readonly status: CheckStatus;
  /** Protocol name (`vault`, `device-local`, …); undefined when the store cannot be produced. */
  readonly protocol: string | undefined;
  /** The storage check, then (for this editor against its agents) the agreement check. */
  readonly checks: readonly DoctorCheck[];
  /** The store root the lock is keyed on, when the store is on disk. */
  readonly lockedStoreRoot: string | undefined;
  /** Whether `agentm.vault.path` overrides the shared config in this editor. */
  readonly overridden: boolean;
}

export interface Doctor {
  /** The quick checks, for the status bar; never throws and never writes. */
  status(): Promise<StorageState>;
  /** Every check of the workspace's doctor, in order; never throws. */
  run(): Promise<readonly DoctorCheck[]>;
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
  /** Records progress on a step through the workspace's transitions; refusals are core's typed errors. */
  updateStep(
    update: WorkspaceStepUpdate,
    options: { readonly actor: string; readonly secrets?: readonly string[] },
  ): Promise<StepUpdateOutcome>;
}

/** Reports steps of long work to the window; `increment` is in percent. */
export interface WorkProgress {
  report(step: { message?: string; increment?: number }): void;
}

/** How a run ended, with what a person needs to act on a failure. */
export interface RunOutcome {
  /** What people call the plan: its goal, else its first heading, else its name. */
  readonly title: string;
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
  /** `project` (default): this project's notes; `global`: every project's. */
  readonly scope?: NoteScope;
}

export interface NoteSaver {
  /** The kinds offered in the quick pick (agentm's vocabulary, from `.agentm-config.json` when it has one). */
  kinds(): Promise<{ readonly types: readonly string[]; readonly recordKinds: readonly string[] }>;
  /** Core's message when `kind` is neither in the vocabulary nor a retired name of one (`decision` → convention). */
  validateKind(kind: string): Promise<string | undefined>;
  /** Where a note of `scope` is filed (the workspace's rule): for the prompts to say before anything is written. */
  filing(scope?: NoteScope): Promise<NoteFiling>;
  /**
   * A message naming what is wrong and how to fix it, or undefined when `slug` is acceptable. With
   * `kind`, also refuses a slug whose note already exists (saving never overwrites).
   */
  validateSlug(slug: string, kind?: string, scope?: NoteScope): Promise<string | undefined>;
  /** Same for the comma-separated tag list. */
  validateTags(tags: string): string | undefined;
  /** Where a note of `kind` named `slug` would go, relative to the memory root. Throws core's validation errors. */
  target(kind: string, slug: string, scope?: NoteScope): Promise<string>;
  /** Writes the note in agentm's format (never overwrites); resolves with where it went (`where`: in words). */
  save(draft: NoteDraft): Promise<{ readonly uri: vscode.Uri; readonly where: string }>;
}

export interface MemoryMaintenance {
  /** Brings the derived index up to date; resolves with a short result ("indexed 12 notes"). */
  reindex(progress: WorkProgress, token: vscode.CancellationToken): Promise<string>;
  consolidate(progress: WorkProgress, token: vscode.CancellationToken): Promise<string>;
}
