import type { Notice as RealNotice } from 'obsidian';
import './dom-helpers.js';

const shown: string[] = [];

function container(): HTMLElement {
  return document.body.find('.notice-container') ?? document.body.createDiv('notice-container');
}

/**
 * Obsidian's `Notice`: a toast in the notice container. The fake does not auto-hide after `duration`
 * (no timer outlives a test); `hide()` removes it. Every message is also kept for `shownNotices()`.
 */
export class Notice implements RealNotice {
  noticeEl: HTMLElement;
  containerEl: HTMLElement;
  messageEl: HTMLElement;

  constructor(message: string | DocumentFragment, _duration?: number) {
    this.containerEl = container().createDiv('notice');
    this.noticeEl = this.containerEl;
    this.messageEl = this.containerEl.createDiv('notice-message');
    this.setMessage(message);
  }

  setMessage(message: string | DocumentFragment): this {
    this.messageEl.setText(message);
    shown.push(this.messageEl.getText());
    return this;
  }

  hide(): void {
    this.containerEl.detach();
  }
}

/** Test aid: every notice message shown in this process, oldest first. */
export function shownNotices(): readonly string[] {
  return shown;
}
