/**
 * What the commands need from AgentM's core, as one small interface. The plugin registers the commands
 * only when it is given an implementation: the real one wraps core's memory save (issue 3), recall
 * (issue 4), active plan resolution and storage preview (issue 3), and is wired in `createServices`.
 */
export interface SaveNoteRequest {
  readonly kind: string;
  readonly slug: string;
  readonly tags: readonly string[];
  readonly body: string;
  /** The note's group (e.g. `desk/projects/agentm`); omitted for the default. */
  readonly group?: string;
}

export interface SavedNote {
  /** Where the note landed, vault-relative. */
  readonly path: string;
}

export interface RecallHit {
  /** Vault-relative path of the note. */
  readonly path: string;
  readonly title: string;
  readonly snippet?: string;
  readonly score: number;
}

export interface DoctorReport {
  readonly status: 'ok' | 'warn' | 'fail';
  readonly protocol: string;
  /** The one-line verdict, as `agentm doctor` prints it. */
  readonly line: string;
}

export interface AgentMServices {
  /** Saves a memory note in agentm's format; never overwrites (rejects with a message naming the problem). */
  saveNote(request: SaveNoteRequest): Promise<SavedNote>;
  /** Recall results for a query, best first. */
  recall(query: string): Promise<readonly RecallHit[]>;
  /** The active plan's file, vault-relative, or `undefined` when there is none. */
  activePlanFile(): Promise<string | undefined>;
  /** The storage preview; never throws for a misconfiguration (it reports `fail`). */
  doctor(): Promise<DoctorReport>;
}
