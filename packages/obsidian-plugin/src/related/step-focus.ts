import { Events } from 'obsidian';

/** A plan step someone is looking at in the plan view. */
export interface FocusedStep {
  /** The plan file's vault path, and its progress log's (the step's own entries are not "related"). */
  readonly path: string;
  readonly progressPath: string;
  /** The step's id and title, and the text its related memories are recalled for. */
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

/**
 * Which plan step the plan view has selected: the related memories view shows that step's memories
 * until another note becomes active. Emits `changed`.
 */
export class StepFocus extends Events {
  #step: FocusedStep | undefined;

  get step(): FocusedStep | undefined {
    return this.#step;
  }

  set(step: FocusedStep | undefined): void {
    this.#step = step;
    this.trigger('changed');
  }
}
