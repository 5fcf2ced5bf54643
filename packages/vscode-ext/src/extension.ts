import * as vscode from 'vscode';
import { DeviceLocalBackend, VaultBackend, type StorageBackend } from '@agentm/core';

/** Skeleton: the sidebar, commands and status bar arrive with the extension issue. */
export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentm.doctor', async () => {
      const vault = process.env['MEMORY_VAULT_PATH']?.trim();
      const backend: StorageBackend = vault ? new VaultBackend({ root: vault }) : new DeviceLocalBackend();
      const protocol = vault ? 'vault' : 'device-local';
      const flags = Object.entries(backend.capabilities)
        .filter(([, on]) => on)
        .map(([flag]) => flag);
      void vscode.window.showInformationMessage(`AgentM: backend '${protocol}' (${flags.join(', ') || 'no shared-writer capabilities'})`);
    }),
  );
}

export function deactivate(): void {}
