import { join } from 'node:path';
import { storagePreview } from '@agentm/core';
import { describe, expect, it, vi } from 'vitest';
import { spawnFixture } from '../../../test/helpers/processes.js';
import { shownNotices, unloadPlugin } from './fake-obsidian/testing.js';
import { modal, startWithPlugin, type Started } from './helpers/plugin.js';

const HARNESS = 'desk/projects/agentm/_harness';

async function openFile(s: Started, path: string): Promise<void> {
  await s.v.app.workspace.getLeaf(true).openFile(s.v.app.vault.getFileByPath(path)!);
}

async function runAndWaitForActive(s: Started, id: string, path: string): Promise<void> {
  s.v.fake.commands.executeCommandById(`agentm-vault:${id}`);
  await vi.waitFor(() => expect(s.v.app.workspace.getActiveFile()?.path).toBe(path));
}

describe('open the active plan', () => {
  it('opens PLAN.md of the active file’s project, passing over archives, progress logs and sync conflict copies', async () => {
    const s = await startWithPlugin({
      'desk/projects/agentm/notes/today.md': 'today\n',
      [`${HARNESS}/PLAN.md`]: '- [ ] one\n',
      [`${HARNESS}/PLAN (conflicted copy 2026-01-02).md`]: '- [ ] old\n',
      [`${HARNESS}/PLAN.archive.20260101.md`]: 'old\n',
      [`${HARNESS}/progress.md`]: 'log\n',
      'desk/projects/other/_harness/PLAN-x.md': 'x\n',
    });
    await openFile(s, 'desk/projects/agentm/notes/today.md');
    await runAndWaitForActive(s, 'open-active-plan', `${HARNESS}/PLAN.md`);
    unloadPlugin(s.plugin);
  });

  it('offers a picker when the project has several plans (the repo’s active-plan marker is not visible from Obsidian)', async () => {
    const s = await startWithPlugin({
      'desk/projects/agentm/notes/today.md': 'today\n',
      [`${HARNESS}/PLAN.md`]: '- [ ] one\n',
      [`${HARNESS}/PLAN-api.md`]: '- [ ] api\n',
      [`${HARNESS}/PLAN-api (conflicted copy 2026-01-02).md`]: '- [ ] old\n',
      [`${HARNESS}/PLAN-zeta.md/inner.md`]: 'a folder, not a plan\n',
    });
    await openFile(s, 'desk/projects/agentm/notes/today.md');
    s.v.fake.commands.executeCommandById('agentm-vault:open-active-plan');
    const items = await vi.waitFor(() => {
      const found = Array.from(document.body.querySelectorAll<HTMLElement>('.prompt-results .suggestion-item'));
      if (found.length === 0) throw new Error('no picker yet');
      return found;
    });
    expect(items.map((i) => i.textContent)).toEqual(['PLAN.md', 'PLAN-api.md']);
    items[1]!.click();
    await vi.waitFor(() => expect(s.v.app.workspace.getActiveFile()?.path).toBe(`${HARNESS}/PLAN-api.md`));
    unloadPlugin(s.plugin);
  });

  it('uses the default project setting when the active file is in no project, probing the spaces like core', async () => {
    const s = await startWithPlugin(
      { 'Agent/projects/legacy/_harness/PLAN-x.md': '- [ ] x\n', 'loose.md': 'x\n' },
      {
        before: (v) =>
          v.writeConfig({ 'plugins.obsidian-vault.vault_path': v.dir, 'plugins.obsidian-vault.memory_root': 'Agent' }),
      },
    );
    await openFile(s, 'loose.md');
    s.plugin.settings.defaultProject = 'legacy';
    await runAndWaitForActive(s, 'open-active-plan', 'Agent/projects/legacy/_harness/PLAN-x.md');
    unloadPlugin(s.plugin);
  });

  it('says why when there is no project, or the project has no plan', async () => {
    const s = await startWithPlugin({ 'loose.md': 'x\n', 'desk/projects/agentm/notes/today.md': 'today\n' });
    s.v.fake.commands.executeCommandById('agentm-vault:open-active-plan');
    await vi.waitFor(() =>
      expect(shownNotices().at(-1)).toMatch(/^AgentM: no current project: open a note inside a project folder/),
    );
    await openFile(s, 'desk/projects/agentm/notes/today.md');
    s.v.fake.commands.executeCommandById('agentm-vault:open-active-plan');
    await vi.waitFor(() =>
      expect(shownNotices().at(-1)).toBe(`AgentM: project agentm has no plan: no PLAN.md or PLAN-*.md in ${HARNESS}.`),
    );
    unloadPlugin(s.plugin);
  });
});

describe('show storage doctor', () => {
  async function doctor(s: Started): Promise<{ storage: string; facts: string[]; warnings: string[] }> {
    s.v.fake.commands.executeCommandById('agentm-vault:show-storage-doctor');
    const dialog = await vi.waitFor(() => modal() ?? Promise.reject(new Error('no modal yet')));
    const text = (sel: string) => Array.from(dialog.querySelectorAll(sel)).map((e) => e.textContent ?? '');
    const result = {
      storage: text('.agentm-doctor-storage')[0] ?? '',
      facts: text('li'),
      warnings: text('.agentm-doctor-warn'),
    };
    (dialog.querySelector('.modal-close-button') as HTMLElement).click();
    return result;
  }

  it('shows agentm’s selection line for the config, the memory root it gives this vault, the lock and the conflicts', async () => {
    const s = await startWithPlugin(
      { 'Agent/memory/fix/a.md': 'a', 'Agent/memory/fix/a (conflicted copy 2026-01-02).md': 'b' },
      {
        before: (v) =>
          v.writeConfig({
            'storage.backend': 'vault',
            'plugins.obsidian-vault.vault_path': v.dir,
            'plugins.obsidian-vault.memory_root': 'Agent',
          }),
      },
    );
    const expected = await storagePreview({
      host: s.v.host.hostEnv,
      lockRoot: s.v.lockRoot,
    });
    const report = await doctor(s);
    expect(report.storage).toBe(expected.line);
    expect(report.storage).toBe(
      `storage [OK] selected backend 'vault' (configured (storage.backend)) — registered; memory root ${join(s.v.dir, 'Agent')} writable`,
    );
    expect(report.facts).toEqual([
      "Memory root: Agent (from agentm's config)",
      `On disk: ${join(s.v.dir, 'Agent')}`,
      'Vault lock: free',
      'Conflict copies: 1',
    ]);
    expect(report.warnings).toEqual([]);

    const holder = spawnFixture('lock-holder.mjs', [join(s.v.dir, 'Agent'), s.v.lockRoot, '10000', 'forever']);
    await holder.waitForLine(/^held /);
    expect((await doctor(s)).facts[2]).toMatch(/^Vault lock: held by an agent \(last heartbeat \d+ s ago\)$/);
    holder.child.kill('SIGTERM');
    await holder.exited;
    unloadPlugin(s.plugin);
  });

  it('warns when agents use another memory root, or no vault at all', async () => {
    const s = await startWithPlugin(
      {},
      {
        before: (v) =>
          v.writeConfig({
            'storage.backend': 'vault',
            'plugins.obsidian-vault.vault_path': v.dir,
            'plugins.obsidian-vault.memory_root': 'Agent',
          }),
      },
    );
    s.plugin.settings.memoryRoot = 'Other';
    await s.plugin.saveSettings();
    const mismatch = await doctor(s);
    expect(mismatch.facts[0]).toBe('Memory root: Other (from the plugin settings)');
    expect(mismatch.warnings).toEqual([
      `Warning: agents write to ${join(s.v.dir, 'Agent')}, but this plugin's memory root is ${join(s.v.dir, 'Other')}: their notes, plans and lock are not shared. Set the memory root folder in Settings → AgentM, or fix agentm's config.`,
    ]);
    unloadPlugin(s.plugin);

    const none = await startWithPlugin();
    const report = await doctor(none);
    expect(report.storage).toBe(
      `storage [OK] selected backend 'device-local' (fresh-install default) — registered; root ${join(none.v.home, '.agentm', 'memory')} writable`,
    );
    expect(report.facts[0]).toBe('Memory root: / (default: the vault root)');
    expect(report.warnings[0]).toMatch(
      /^Warning: agentm on this machine keeps memory with the 'device-local' backend, not in a vault/,
    );
    unloadPlugin(none.plugin);
  });
});
