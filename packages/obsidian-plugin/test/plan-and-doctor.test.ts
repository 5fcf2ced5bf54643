import { join } from 'node:path';
import { storagePreview } from '@agentm/core/config';
import { describe, expect, it } from 'vitest';
import { spawnFixture } from '../../../test/helpers/processes.js';
import { nextModal, shownNotices, unloadPlugin } from './fake-obsidian/testing.js';
import { runCommand, startWithPlugin, type Started } from './helpers/plugin.js';
import { until } from './helpers/until.js';

const HARNESS = 'desk/projects/agentm/_harness';

async function openFile(s: Started, path: string): Promise<void> {
  await s.v.app.workspace.getLeaf(true).openFile(s.v.app.vault.getFileByPath(path)!);
}

async function runAndWaitForActive(s: Started, id: string, path: string): Promise<void> {
  await runCommand(s, id);
  expect(s.v.app.workspace.getActiveFile()?.path).toBe(path);
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
    const opened = nextModal();
    s.v.fake.commands.executeCommandById('agentm-vault:open-active-plan');
    const items = Array.from((await opened).modalEl.querySelectorAll<HTMLElement>('.prompt-results .suggestion-item'));
    expect(items.map((i) => i.textContent)).toEqual(['PLAN', 'api']);
    items[1]!.click();
    await until(() => expect(s.v.app.workspace.getActiveFile()?.path).toBe(`${HARNESS}/PLAN-api.md`));
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
    await runCommand(s, 'open-active-plan');
    expect(shownNotices().at(-1)).toMatch(/^AgentM: no current project: open a note inside a project folder/);
    await openFile(s, 'desk/projects/agentm/notes/today.md');
    await runCommand(s, 'open-active-plan');
    expect(shownNotices().at(-1)).toBe(`AgentM: project agentm has no plan: no PLAN.md or PLAN-*.md in ${HARNESS}.`);
    unloadPlugin(s.plugin);
  });
});

describe('show storage doctor', () => {
  async function doctor(s: Started): Promise<{ root: string; checks: string[] }> {
    const opened = nextModal();
    s.v.fake.commands.executeCommandById('agentm-vault:show-storage-doctor');
    const dialog = (await opened).modalEl;
    const text = (sel: string) => Array.from(dialog.querySelectorAll(sel)).map((e) => e.textContent ?? '');
    const result = { root: text('.agentm-doctor-root')[0] ?? '', checks: text('li') };
    (dialog.querySelector('.modal-close-button') as HTMLElement).click();
    return result;
  }
  const check = (checks: string[], id: string) => checks.find((c) => c.startsWith(`${id} [`));

  it('shows the memory root and the workspace’s checks: agentm’s selection, agreement, the lock, the conflicts', async () => {
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
    const expected = await storagePreview({ host: s.v.host.hostEnv, lockRoot: s.v.lockRoot });
    const report = await doctor(s);
    expect(report.root).toBe(`Memory root: Agent (from agentm's config), on disk ${join(s.v.dir, 'Agent')}`);
    expect(report.checks[0]).toBe(expected.line);
    expect(check(report.checks, 'agreement')).toMatch(
      /^agreement \[OK\] this editor and the agents in this folder share the memory root /,
    );
    expect(check(report.checks, 'lock')).toMatch(/^lock \[OK\] free /);
    expect(check(report.checks, 'conflicts')).toMatch(
      /^conflicts \[WARN\] 1 sync conflict copy: .*\n {2}memory\/fix\/a \(conflicted copy 2026-01-02\)\.md/s,
    );

    const holder = spawnFixture('lock-holder.mjs', [join(s.v.dir, 'Agent'), s.v.lockRoot, '10000', 'forever']);
    await holder.waitForLine(/^held /);
    expect(check((await doctor(s)).checks, 'lock')).toMatch(
      /^lock \[OK\] held by a running writer \(heartbeat \d+\.\d s ago\)$/,
    );
    holder.child.kill('SIGTERM');
    await holder.exited;
    unloadPlugin(s.plugin);
  });

  it('fails, naming the fix, when agents use another memory root, or no vault at all', async () => {
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
    expect(mismatch.root).toMatch(/^Memory root: Other \(from the plugin settings\)/);
    expect(check(mismatch.checks, 'agreement')).toContain(
      `agreement [FAIL] this editor keeps memory in ${join(s.v.dir, 'Other')} (lock `,
    );
    expect(check(mismatch.checks, 'agreement')).toContain(`uses ${join(s.v.dir, 'Agent')} (lock `);
    expect(check(mismatch.checks, 'agreement')).toContain('— set the memory root folder in Settings → AgentM');
    unloadPlugin(s.plugin);

    const none = await startWithPlugin();
    const report = await doctor(none);
    expect(report.checks[0]).toBe(
      `storage [OK] selected backend 'device-local' (fresh-install default) — registered; root ${join(none.v.home, '.agentm', 'memory')} writable`,
    );
    expect(report.root).toMatch(/^Memory root: \/ \(default: the vault root\)/);
    expect(check(report.checks, 'agreement')).toMatch(
      /^agreement \[FAIL\] this editor keeps memory in .* but an agent in this folder .* uses .*\.agentm\/memory/,
    );
    unloadPlugin(none.plugin);
  });
});
