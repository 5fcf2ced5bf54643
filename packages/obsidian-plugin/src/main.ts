import { Notice, Plugin } from 'obsidian';
import { VaultBackend } from '@agentm/core';

/** Skeleton: the in-vault backend, conflicts view and commands arrive with the plugin issue. */
export default class AgentMPlugin extends Plugin {
  override async onload(): Promise<void> {
    this.addCommand({
      id: 'show-storage-doctor',
      name: 'Show storage doctor',
      callback: () => {
        const caps = new VaultBackend({ root: '.' }).capabilities;
        new Notice(`AgentM: vault backend (concurrent writers: ${caps.concurrentWriters ? 'yes' : 'no'})`);
      },
    });
  }
}
