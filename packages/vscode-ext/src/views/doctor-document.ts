import * as vscode from 'vscode';
import type { DoctorCheck } from '@agentm/core';
import { doctorReport } from './doctor-report';

export const DOCTOR_SCHEME = 'agentm-doctor';
/**
 * One read-only document for the latest report, in the extension's `agentm-doctor` language: its grammar
 * colours [OK]/[WARN]/[FAIL], and its default word wrap shows each check whole, still one per line.
 */
export const DOCTOR_URI = vscode.Uri.from({ scheme: DOCTOR_SCHEME, path: '/AgentM doctor' });
const DOCTOR_LANGUAGE = 'agentm-doctor';
/** How long a refresh of the open report is waited for; past it, the report shows a moment later. */
const REFRESH_WAIT_MS = 3_000;

/**
 * The doctor's report as a read-only document (a content provider: there is no file and nothing to
 * save), replaced by each run. Where a notification would cut a long line, the document shows every
 * check whole, one per line.
 */
export class DoctorDocument implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.#changed.event;
  #text = 'AgentM doctor: not run yet. Run "AgentM: Show storage doctor".\n';

  provideTextDocumentContent(): string {
    return this.#text;
  }

  /**
   * Replaces the report and opens it (or brings it to the front). An open report is refreshed by VS Code
   * after the change event, asynchronously: this waits (briefly) until it shows the new text, so the
   * report on screen when the command returns is this run's.
   */
  async show(checks: readonly DoctorCheck[], when = new Date()): Promise<vscode.TextDocument> {
    const text = (this.#text = doctorReport(checks, when));
    const key = DOCTOR_URI.toString();
    let subscription: vscode.Disposable | undefined;
    const refreshed = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, REFRESH_WAIT_MS);
      subscription = vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === key && e.document.getText() === text) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    try {
      this.#changed.fire(DOCTOR_URI);
      let doc = await vscode.workspace.openTextDocument(DOCTOR_URI);
      if (doc.getText() !== text) await refreshed;
      if (doc.languageId !== DOCTOR_LANGUAGE)
        doc = await vscode.languages.setTextDocumentLanguage(doc, DOCTOR_LANGUAGE);
      await vscode.window.showTextDocument(doc, { preview: false });
      return doc;
    } finally {
      subscription?.dispose();
    }
  }

  dispose(): void {
    this.#changed.dispose();
  }
}
