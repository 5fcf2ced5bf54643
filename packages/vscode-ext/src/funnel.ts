import * as vscode from 'vscode';
import { ActionableError, messageOf, NothingToDoError } from './errors';

/** What a command resolves with, so callers (and tests) can tell success from refusal without the UI. */
export type CommandOutcome<T = unknown> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: 'cancelled' | 'error'; readonly message: string };

export interface FunnelMessage {
  readonly severity: 'info' | 'warning' | 'error';
  readonly text: string;
  readonly userStarted: boolean;
  /** The buttons the notification offers, if any. */
  readonly actions?: readonly string[];
}

/** A button on a notification and what it does. */
export interface NotificationAction {
  readonly title: string;
  readonly run: () => unknown;
}

/** Shows a notification with buttons; resolves with the title clicked (undefined: dismissed, or never). */
export type NotificationPrompt = (
  severity: FunnelMessage['severity'],
  text: string,
  actions: readonly string[],
) => Thenable<string | undefined>;

const showNotification: NotificationPrompt = (severity, text, actions) =>
  severity === 'error'
    ? vscode.window.showErrorMessage(text, ...actions)
    : severity === 'warning'
      ? vscode.window.showWarningMessage(text, ...actions)
      : vscode.window.showInformationMessage(text, ...actions);

/** Where background trouble is shown (the status bar item). */
export interface TroubleSink {
  setTrouble(source: string, message: string | undefined): void;
}

/**
 * The extension's one error funnel (STYLE: "one error funnel per front end"). A user-started action
 * that fails gets exactly one notification; background trouble goes to the status bar; both get a line
 * in the AgentM output channel. Messages come from typed errors that already name the fix.
 */
export class ErrorFunnel {
  /** The latest messages, newest last (for the inspect command the tests call). */
  readonly recent: FunnelMessage[] = [];
  #sink: TroubleSink | undefined;
  /** How notifications are shown (VS Code's; the tests answer in its place: the e2e cannot click a toast). */
  prompt: NotificationPrompt = showNotification;

  constructor(readonly output: vscode.LogOutputChannel) {}

  attach(sink: TroubleSink): void {
    this.#sink = sink;
  }

  /** Runs a command the user started; a throw becomes one notification, and the outcome says what happened. */
  async userAction<T>(title: string, action: () => Promise<T>): Promise<CommandOutcome<T>> {
    try {
      return { ok: true, value: await action() };
    } catch (error) {
      if (error instanceof vscode.CancellationError)
        return { ok: false, reason: 'cancelled', message: `${title} cancelled` };
      const text = `AgentM: ${messageOf(error)}`;
      if (error instanceof Error && error.stack) this.output.error(`${title}: ${error.stack}`);
      // Nothing to act on is the user's to fix (select text, pick a plan): a warning, not a failure.
      if (error instanceof ActionableError) this.offer('error', text, error.actions);
      else this.notify(error instanceof NothingToDoError ? 'warning' : 'error', text, true);
      return { ok: false, reason: 'error', message: text };
    }
  }

  /** A result or notice for an action the user started. Never awaited: with no toast the promise never settles. */
  notify(severity: FunnelMessage['severity'], text: string, userStarted = true): void {
    this.#remember({ severity, text, userStarted });
    void this.prompt(severity, text, []);
  }

  /**
   * A notification with buttons for the user's next step; the one clicked runs (its failure is reported
   * like any command's). Returns at once: a notification may stay unanswered for the whole session.
   */
  offer(severity: FunnelMessage['severity'], text: string, actions: readonly NotificationAction[]): void {
    const titles = actions.map((a) => a.title);
    this.#remember({ severity, text, userStarted: true, actions: titles });
    void (async () => {
      const chosen = await this.prompt(severity, text, titles);
      await actions.find((a) => a.title === chosen)?.run();
    })().catch((error: unknown) => this.output.warn(`notification action: ${messageOf(error)}`));
  }

  /** Background trouble from `source` (undefined clears it): status bar, not a notification. */
  background(source: string, error: unknown): void {
    const text = error === undefined ? undefined : `AgentM: ${messageOf(error)}`;
    if (text) {
      this.#remember({ severity: 'warning', text, userStarted: false });
      this.output.warn(`${source}: ${text}`);
    }
    this.#sink?.setTrouble(source, text);
  }

  #remember(message: FunnelMessage): void {
    this.recent.push(message);
    if (this.recent.length > 20) this.recent.shift();
    if (message.userStarted) this.output.info(message.text);
  }
}
