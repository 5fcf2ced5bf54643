import type { DoctorCheck, ListedPlan, PlanHandle } from '@agentm/core';
import type { Vocabulary } from '@agentm/core/memory';

/**
 * What the commands need from AgentM's core, as one small interface. The real implementation
 * (`core-services/`) wraps core's notes, memory engine, state rules and storage preview over the in-vault
 * backend; `AgentMPlugin.createServices` wires it, and tests may hand in their own.
 */
export interface SaveNoteRequest {
  readonly kind: string;
  readonly slug: string;
  readonly tags: readonly string[];
  readonly body: string;
  /** The note's group (e.g. `desk/projects/agentm`); omitted for the memory space. */
  readonly group?: string;
}

export interface SavedNote {
  /** Where the note landed, vault-relative. */
  readonly path: string;
}

/** What the save form offers before anything is typed. */
export interface SaveForm {
  /** The filing vocabulary (agentm's config `memory.vocabulary`, else the default register). */
  readonly vocabulary: Vocabulary;
  /** The group a note lands in unless changed: the current project's folder, else the memory space. */
  readonly group: string;
  /** The current project's slug, if any. */
  readonly project: string | undefined;
}

export interface RecallHit {
  /** Vault-relative path of the note (or of the progress log an episode comes from). */
  readonly path: string;
  readonly title: string;
  readonly snippet?: string;
  /** The memory type or record kind (`episode` for a progress entry). */
  readonly kind?: string;
  readonly score: number;
}

/** The plans of the current project. */
export interface PlanLookup {
  /** The project's slug; undefined when no project could be told. */
  readonly project: string | undefined;
  /** Its plans as the workspace lists them (`PLAN.md` first, then `PLAN-*.md`): name, title (the goal), vault path. */
  readonly plans: readonly { readonly name: string; readonly title: string; readonly path: string }[];
  /** Why `plans` is empty, in words for a notice. */
  readonly reason?: string;
}

/** The current project's plans as core lists them, for the plan view. */
export interface PlanBoard {
  /** The project's slug; undefined when no project could be told. */
  readonly project: string | undefined;
  /** The project's `_harness/` folder, vault-relative (where the view listens for changes). */
  readonly folder: string | undefined;
  /** PLAN.md first, then PLAN-*.md, each titled by its goal, with its status and step counts. */
  readonly plans: readonly ListedPlan[];
  /** Why `plans` is empty, in words. */
  readonly reason?: string;
}

export interface DoctorReport {
  /** The workspace's checks (core's doctor, this vault against the agents on this machine), in order. */
  readonly checks: readonly DoctorCheck[];
  /** The plugin's memory root: where it keeps memory in this vault and why (the checks compare it with the agents'). */
  readonly memoryRoot: {
    /** The memory root folder as shown to people (`/` for the vault root). */
    readonly folder: string;
    /** Where it came from, in words. */
    readonly source: string;
    /** The memory root on disk. */
    readonly path: string;
  };
}

export interface AgentMServices {
  /** The vocabulary and default group for the save form. */
  saveForm(): Promise<SaveForm>;
  /** Saves a memory note in agentm's format; never overwrites (rejects with a message naming the problem). */
  saveNote(request: SaveNoteRequest): Promise<SavedNote>;
  /**
   * Recall results for a query, best first, scoped to the current project (plus global notes) when there
   * is one; an empty query lists the most recent memories.
   */
  recall(query: string): Promise<readonly RecallHit[]>;
  /**
   * The memories recall ranks highest for `text` (a note's or a plan step's), scoped like `recall` but
   * to the project of `path` (its folder, else the default project), never from `path` itself nor from
   * the files in `besides` (a step's own progress log): best first.
   */
  related(text: string, path: string, besides?: readonly string[]): Promise<readonly RecallHit[]>;
  /** The current project's plan files. */
  activePlanFiles(): Promise<PlanLookup>;
  /** The current project's plans (core's listing of its `_harness/` folder in the vault). */
  planBoard(): Promise<PlanBoard>;
  /** One plan of `project`, to read and steer through core's transitions (see `PlanHandle`). */
  openPlan(project: string, name: string): Promise<PlanHandle>;
  /** The workspace's doctor and the plugin's memory root; never throws for a misconfiguration (it reports `fail`). */
  doctor(): Promise<DoctorReport>;
}
