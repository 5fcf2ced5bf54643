/**
 * Compile-time proof that the fake matches obsidian.d.ts (checked by `pnpm run check:types`).
 * Classes are checked where they are declared: each `implements` the real class (or, for the big ones,
 * `Pick`s of the members plugins here use), with members typed by the real types. This file checks
 * the module-level functions and constants, and that each fully-modelled class's constructor builds
 * something the real class type accepts.
 */
import type * as Real from 'obsidian';
import * as Fake from './index.js';

/** Module functions and constants, with their exact real types. */
export const functions: Pick<typeof Real, 'normalizePath' | 'debounce' | 'setIcon' | 'prepareFuzzySearch'> = Fake;
export const platform: Pick<
  typeof Real.Platform,
  'isDesktop' | 'isDesktopApp' | 'isMobile' | 'isMacOS' | 'isWin' | 'isLinux'
> = Fake.Platform;

/** Constructors of the fully modelled classes produce instances of the real types. */
export const constructors: {
  Notice: new (message: string | DocumentFragment, duration?: number) => Real.Notice;
  Modal: new (app: Real.App) => Real.Modal;
  Setting: new (containerEl: HTMLElement) => Real.Setting;
  ButtonComponent: new (containerEl: HTMLElement) => Real.ButtonComponent;
  TextComponent: new (containerEl: HTMLElement) => Real.TextComponent;
  TextAreaComponent: new (containerEl: HTMLElement) => Real.TextAreaComponent;
  ToggleComponent: new (containerEl: HTMLElement) => Real.ToggleComponent;
  Component: new () => Real.Component;
  Events: new () => Real.Events;
  TFile: new () => Real.TFile;
  TFolder: new () => Real.TFolder;
  FileSystemAdapter: new (basePath: string) => Real.FileSystemAdapter;
  Vault: new (adapter: Fake.FileSystemAdapter) => Real.Vault;
} = Fake;

/** `AbstractInputSuggest.onSelect` takes the real callback type (it returns `this`, so it is checked here). */
export const onSelectTakesTheRealCallback = (
  suggest: Fake.AbstractInputSuggest<string>,
  callback: Parameters<Real.AbstractInputSuggest<string>['onSelect']>[0],
): Fake.AbstractInputSuggest<string> => suggest.onSelect(callback);
