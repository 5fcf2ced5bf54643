import type { Component } from 'obsidian';
import { shortHash } from '@agentm/core/write-protocol';
import { nameOf } from '../vault-paths.js';
import type { ConflictEntry } from './conflict-index.js';
import { unifiedDiff } from './diff.js';
import { renderDiff } from './diff-view.js';
import type { ResolveAction, Shown } from './resolver.js';

/** The two texts behind one card, as read when the card was drawn. */
export interface CardTexts {
  readonly copy: string;
  /** `null` when the original is absent (or unknown, for lost-and-found files). */
  readonly original: string | null;
  readonly shown: Shown;
}

export interface CardHandlers {
  open(which: 'original' | 'copy' | 'both'): unknown;
  resolve(action: ResolveAction): unknown;
  bringIntoVault(): unknown;
}

const ACTIONS: ReadonlyArray<readonly [ResolveAction, string]> = [
  ['keep-original', 'Keep original'],
  ['keep-copy', 'Keep this copy'],
  ['merged-by-hand', 'I merged it by hand'],
];

/**
 * One conflict copy: what it is, the hashes the actions will hold to, the buttons, and the diff.
 * Listeners go through `owner.registerDomEvent`, so they end with the render that made them.
 */
export function renderConflictCard(
  parent: HTMLElement,
  entry: ConflictEntry,
  texts: CardTexts,
  handlers: CardHandlers,
  owner: Component,
): HTMLElement {
  const card = parent.createDiv({ cls: 'agentm-conflict', attr: { 'data-copy': entry.copyPath } });
  card.createDiv({
    cls: 'agentm-conflict-name',
    text: entry.source === 'vault' ? nameOf(entry.copyPath) : entry.copyPath,
  });
  const facts = card.createDiv({ cls: 'agentm-conflict-facts agentm-muted' });
  facts.createSpan({ text: `${entry.tool} · ${entry.family}` });
  facts.createSpan({
    cls: 'agentm-conflict-hashes',
    text: ` · original ${texts.shown.originalHash === null ? 'absent' : shortHash(texts.shown.originalHash)} · copy ${shortHash(texts.shown.copyHash)}`,
  });
  if (entry.progressLog) facts.createSpan({ text: ` · recorded in ${nameOf(entry.progressLog)}` });

  const buttons = card.createDiv({ cls: 'agentm-conflict-actions' });
  const button = (text: string, action: () => void, cls?: string) => {
    const el = buttons.createEl('button', { text, ...(cls ? { cls } : {}) });
    owner.registerDomEvent(el, 'click', () => action());
    return el;
  };
  if (entry.source === 'vault') {
    if (entry.originalExists) button('Open original', () => handlers.open('original'));
    button('Open copy', () => handlers.open('copy'));
    if (entry.originalExists) button('Open both', () => handlers.open('both'));
    for (const [action, label] of ACTIONS) {
      if (action === 'merged-by-hand' && !entry.originalExists) continue;
      button(label, () => handlers.resolve(action), 'mod-warning');
    }
  } else if (entry.originalPath) {
    button('Open original', () => handlers.open('original'));
    button('Bring into vault', () => handlers.bringIntoVault());
  } else {
    card.createDiv({
      cls: 'agentm-muted',
      text: 'No file of this name in the vault: compare it by hand (AgentM never changes the lost_and_found folder).',
    });
  }

  const details = card.createEl('details', { cls: 'agentm-conflict-diff' });
  details.createEl('summary', { text: texts.original === null ? 'Copy text (no original)' : 'Diff: original → copy' });
  renderDiff(details, unifiedDiff(texts.original ?? '', texts.copy));
  return card;
}
