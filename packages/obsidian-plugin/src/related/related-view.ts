import { Component, debounce, type Events, type TFile, type TAbstractFile, type WorkspaceLeaf } from 'obsidian';
import type { AgentMServices, RecallHit } from '../services.js';
import { DrawnView } from '../ui/drawn-view.js';
import { nameOf } from '../vault-paths.js';
import { relatedQuery } from './related-query.js';
import type { FocusedStep, StepFocus } from './step-focus.js';

export const RELATED_VIEW_TYPE = 'agentm-related';

/** What the related memories are shown for. */
type Subject = { readonly kind: 'note'; readonly file: TFile } | { readonly kind: 'step'; readonly step: FocusedStep };

/** What the view needs from the plugin. */
export interface RelatedViewDeps {
  services(): AgentMServices | undefined;
  readonly focus: StepFocus;
  /** Emits `changed` when the plugin's memory-root context is rebuilt: read again. */
  readonly contextChanges: Events;
  /** How long a change of the active note (or of its text on disk) settles before recall runs. */
  readonly debounceMs: number;
  open(path: string): Promise<unknown>;
}

/**
 * The memories recall ranks highest for the active note (or the plan step selected in the plan view),
 * scoped like the commands (its project plus global notes), never the note itself. It follows the
 * active note (`file-open`) and the note's saved text (`modify`), after a debounce, never the editor's
 * keystrokes; an answer to an older subject is dropped. Each memory opens its note.
 */
export class RelatedView extends DrawnView {
  override icon = 'sparkles';
  #subject: Subject | undefined;
  #asked = 0;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly deps: RelatedViewDeps,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return RELATED_VIEW_TYPE;
  }

  getDisplayText(): string {
    return 'Related memories';
  }

  /** How many times recall has been asked (for tests: debouncing, and nothing asked while typing). */
  get asked(): number {
    return this.#asked;
  }

  protected override async onOpen(): Promise<void> {
    const later = debounce(() => this.#requestRender(), this.deps.debounceMs, true);
    this.register(() => later.cancel());
    const { workspace, vault } = this.app;
    this.registerEvent(
      workspace.on('file-open', (file) => {
        if (!file || (this.#subject?.kind === 'note' && this.#subject.file === file)) return;
        this.#subject = { kind: 'note', file };
        later();
      }),
    );
    this.registerEvent(
      this.deps.focus.on('changed', () => {
        const step = this.deps.focus.step;
        if (!step) return;
        this.#subject = { kind: 'step', step };
        later();
      }),
    );
    this.registerEvent(this.deps.contextChanges.on('changed', () => later()));
    const mine = (file: TAbstractFile) => this.#subject?.kind === 'note' && this.#subject.file === file;
    this.registerEvent(vault.on('modify', (file) => mine(file) && later()));
    this.registerEvent(vault.on('rename', (file) => mine(file) && later()));
    this.registerEvent(
      vault.on('delete', (file) => {
        if (!mine(file)) return;
        this.#subject = undefined;
        later();
      }),
    );
    const active = workspace.getActiveFile();
    if (active) this.#subject = { kind: 'note', file: active };
    this.#requestRender();
  }

  #requestRender(): void {
    this.requestDraw((current) => this.#render(current), 'could not show the related memories');
  }

  async #render(current: () => boolean): Promise<void> {
    const subject = this.#subject;
    const services = this.deps.services();
    let hits: readonly RecallHit[] = [];
    let problem: string | undefined;
    if (subject && services) {
      try {
        const { text, path } = await this.#query(subject);
        this.#asked++;
        hits = await services.related(text, path, subject.kind === 'step' ? [subject.step.progressPath] : []);
      } catch (error) {
        problem = (error as Error).message;
      }
    }
    if (!current()) return; // a newer subject is on its way
    this.#show(subject, hits, problem);
  }

  async #query(subject: Subject): Promise<{ text: string; path: string }> {
    if (subject.kind === 'step') return { text: subject.step.text, path: subject.step.path };
    const content = await this.app.vault.cachedRead(subject.file);
    return { text: relatedQuery(subject.file.basename, content), path: subject.file.path };
  }

  #show(subject: Subject | undefined, hits: readonly RecallHit[], problem: string | undefined): void {
    const draw = new Component();
    const root = createDiv({ cls: 'agentm-related' });
    const header = root.createDiv({ cls: 'agentm-related-header agentm-muted' });
    if (!subject) header.setText('Open a note to see the memories related to it.');
    else if (!this.deps.services()) header.setText('AgentM is starting…');
    else {
      const name = subject.kind === 'note' ? subject.file.basename : `step ${subject.step.id}`;
      header.setText(`Related to ${name}`);
    }
    if (problem) root.createDiv({ cls: 'agentm-related-problem', text: `Recall failed: ${problem}` });
    else if (subject && hits.length === 0) root.createDiv({ cls: 'agentm-muted', text: 'No related memories.' });
    for (const hit of hits) {
      const item = root.createDiv({ cls: 'agentm-related-item', attr: { 'data-path': hit.path } });
      const title = item.createEl('a', { cls: 'agentm-related-title', text: hit.title, href: '#' });
      draw.registerDomEvent(title, 'click', (event) => {
        event.preventDefault();
        void this.deps.open(hit.path);
      });
      item.createEl('small', { cls: 'agentm-muted', text: [hit.kind, nameOf(hit.path)].filter(Boolean).join(' · ') });
      if (hit.snippet) item.createDiv({ cls: 'agentm-recall-snippet', text: hit.snippet });
    }
    this.show(root, draw);
  }
}
