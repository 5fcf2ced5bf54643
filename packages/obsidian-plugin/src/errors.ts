import { Notice } from 'obsidian';
import { AgentMError } from '@agentm/core';

/** Base of the plugin's own errors: what went wrong, with which file, and what to do. */
export class AgentMPluginError extends AgentMError {}

/** The vault is not on a local disk (mobile, or a non-filesystem adapter): the lock cannot be taken. */
export class DesktopOnlyError extends AgentMPluginError {
  constructor() {
    super(
      'AgentM needs the desktop app: the vault lock is a directory in your user cache, which only a vault on a local disk can use. Open this vault in Obsidian on a computer.',
      { code: 'EDESKTOPONLY' },
    );
  }
}

/** The memory root folder in the settings is not a vault-relative folder. */
export class MemoryRootSettingError extends AgentMPluginError {
  constructor(value: string, reason: string) {
    super(
      `the memory root folder ${JSON.stringify(value)} is not usable: ${reason}. Set a folder inside the vault (e.g. "Agent"), or leave it empty for the default.`,
      { code: 'EMEMORYROOT' },
    );
  }
}

/**
 * The one error funnel of the plugin (STYLE: obsidian-git's displayError): a Notice the user sees and
 * a console line with the plugin id for bug reports.
 */
export function displayError(error: unknown, context: string): void {
  const message = error instanceof Error ? error.message : String(error);
  new Notice(`AgentM: ${context}: ${message}`, 10_000);
  console.error(`[agentm-vault] ${context}:`, error);
}

/** The "Default project" setting is not one folder name. */
export class ProjectSettingError extends AgentMPluginError {
  constructor(value: string) {
    super(
      `the default project ${JSON.stringify(value)} is not a project folder name: it must be one name without "/", "\\" or NUL (e.g. "agentm"). Fix it in Settings → AgentM, or leave it empty.`,
      { code: 'EPROJECTSETTING' },
    );
  }
}
