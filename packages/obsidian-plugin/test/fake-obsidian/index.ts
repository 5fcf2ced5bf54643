/**
 * The fake `obsidian` module: every plugin test imports `obsidian` and gets this (vitest alias in the
 * root vitest.config.ts). It exports only names of the real API, each behaving like the real one over
 * a real directory and a happy-dom document; `type-check.ts` holds each against obsidian.d.ts.
 * Test-only aids (start-up sequence, notices shown, leak tracking) are in `testing.ts`.
 */
import './dom-helpers.js';

export { FakeApp as App, FileManager } from './app.js';
export { FileSystemAdapter } from './adapter.js';
export { Component } from './component.js';
export { Events, type EventRef } from './events.js';
export { TAbstractFile, TFile, TFolder } from './files.js';
export { FuzzySuggestModal, Modal, SuggestModal } from './modal.js';
export { Notice } from './notice.js';
export { AbstractInputSuggest, PopoverSuggest } from './suggest.js';
export { Plugin } from './plugin.js';
export {
  AbstractTextComponent,
  BaseComponent,
  ButtonComponent,
  TextAreaComponent,
  TextComponent,
  ToggleComponent,
  ValueComponent,
} from './components.js';
export { PluginSettingTab, Setting, SettingTab } from './setting.js';
export { debounce, normalizePath, Platform, prepareFuzzySearch, setIcon } from './util.js';
export { Vault } from './vault.js';
export { Editor, FileView, ItemView, MarkdownView, View } from './views.js';
export { Workspace, WorkspaceLeaf } from './workspace.js';
