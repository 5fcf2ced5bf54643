import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import AgentMPlugin from '../src/main.js';
import { ObsidianVaultBackend } from '../src/vault-backend.js';
import { CONFLICTS_VIEW_TYPE } from '../src/conflicts/conflicts-view.js';
import { whenIndexed } from '../src/open-note.js';
import {
  finishStartup,
  htmlWritesSince,
  leaksSince,
  liveCounts,
  loadPlugin,
  snapshot,
  unloadPlugin,
} from './fake-obsidian/testing.js';
import { MANIFEST, openByCommand, openConflicts, startWithPlugin } from './helpers/plugin.js';
import { PLAN_VIEW_TYPE, PlanView } from '../src/plans/plan-view.js';
import { RELATED_VIEW_TYPE, RelatedView } from '../src/related/related-view.js';
import { ALL_COMMANDS, recallIndexOf } from './helpers/services.js';
import { testVault } from './helpers/vault.js';
import { until } from './helpers/until.js';

describe('plugin lifecycle', () => {
  it('onload only registers: no conflict scan, no lock polling, no backend and no memory index until the layout is ready', async () => {
    const v = await testVault({ 'notes.md': 'a', 'notes (conflicted copy 2026-01-02).md': 'b' }, { start: false });
    const before = liveCounts();
    const plugin = await loadPlugin(v.fake, AgentMPlugin, MANIFEST, (p) => (p.host = v.host));
    expect(plugin.conflicts).toBeUndefined();
    expect(plugin.context).toBeUndefined();
    expect(liveCounts().intervals).toBe(before.intervals);
    expect([...v.fake.commands.commands.keys()].sort()).toEqual(ALL_COMMANDS);
    await finishStartup(v.fake);
    await plugin.whenStarted();
    expect(plugin.conflicts?.entries().map((e) => e.copyPath)).toEqual(['notes (conflicted copy 2026-01-02).md']);
    expect(recallIndexOf(plugin).opened).toBe(false);
    expect(existsSync(join(v.cache, 'agentm', 'index'))).toBe(false);
    expect(liveCounts().intervals).toBe(before.intervals); // the lock is followed by file events, not polled
    expect(plugin.lockIndicator?.following.by).toBe('events');
    unloadPlugin(plugin);
    expect(plugin.lockIndicator?.following.by).toBe('nothing');
  });

  it('names the in-vault backend `vault` in a registry of its own (no process-wide registry to overwrite)', async () => {
    const { v, plugin } = await startWithPlugin();
    const Bound = plugin.context!.registry.get('vault')!;
    const backend = new Bound();
    expect(backend).toBeInstanceOf(ObsidianVaultBackend);
    expect(backend.localRoot).toBe(v.dir);
    expect(plugin.context!.registry.protocols()).toEqual(['device-local', 'postgres', 'vault']);
    unloadPlugin(plugin);
  });

  it('unload removes every event listener, interval, DOM handler, command, ribbon icon, status item and view', async () => {
    const v = await testVault(
      {
        'PLAN.md': 'x',
        'PLAN 2.md': 'y',
        'desk/projects/app/_harness/PLAN.md': '- [ ] a [id:: a]\n',
        'desk/projects/app/n.md': 'n',
      },
      { start: false },
    );
    const before = snapshot();
    const plugin = await loadPlugin(v.fake, AgentMPlugin, MANIFEST, (p) => (p.host = v.host));
    await finishStartup(v.fake);
    await plugin.whenStarted();
    const view = await openConflicts({ v, plugin });
    // The plan and related memories views, drawn with a plan and a note (every draw's listeners live).
    await v.app.workspace.getLeaf(true).openFile(v.app.vault.getFileByPath('desk/projects/app/n.md')!);
    const plans = await openByCommand({ v, plugin }, 'open-plan-view', PLAN_VIEW_TYPE, PlanView);
    await until(() => expect(plans.contentEl.querySelector('.agentm-step')).not.toBeNull());
    await openByCommand({ v, plugin }, 'open-related-memories', RELATED_VIEW_TYPE, RelatedView);
    v.fake.setting.openTab(v.fake.setting.tabs[0]!);
    // The commands' services: recall opens the memory index and starts following vault events; a save
    // waits for the vault to report the new note (no watcher run here, so it is still waiting at unload).
    await plugin.services!.recall('anything');
    const saved = await plugin.services!.saveNote({ kind: 'fix', slug: 'leak-check', tags: [], body: 'b' });
    const opening = whenIndexed(plugin, saved.path);
    const live = leaksSince(before);
    // three vault events (conflicts) + the view's index listener + four (recall index) + two (the save's wait)
    expect(live.eventRefs.length).toBeGreaterThanOrEqual(10);
    expect(live.intervals).toHaveLength(0);
    expect(live.domListeners.length).toBeGreaterThan(0);
    expect(view.contentEl.querySelectorAll('.agentm-conflict')).toHaveLength(1);
    expect(htmlWritesSince(before)).toEqual([]);

    unloadPlugin(plugin);
    // The app closes the plugin's open views asynchronously (onClose is async): wait until it has.
    await until(
      () => expect(leaksSince(before)).toEqual({ intervals: [], eventRefs: [], domListeners: [] }),
      'the views closed',
    );
    expect(await opening).toBeNull();
    expect(v.fake.commands.commands.size).toBe(0);
    expect(v.fake.__ui.ribbon.children).toHaveLength(0);
    expect(v.fake.__ui.statusBar.children).toHaveLength(0);
    expect(v.fake.setting.tabs).toHaveLength(0);
    expect(v.app.workspace.getLeavesOfType(CONFLICTS_VIEW_TYPE)).toHaveLength(0);
    expect(v.app.workspace.getLeavesOfType(PLAN_VIEW_TYPE)).toHaveLength(0);
    expect(v.app.workspace.getLeavesOfType(RELATED_VIEW_TYPE)).toHaveLength(0);
  });

  it('the ribbon icon and the command open the conflicts view (once)', async () => {
    const { v, plugin } = await startWithPlugin();
    (v.fake.__ui.ribbon.querySelector('[aria-label="Open AgentM conflicts"]') as HTMLElement).click();
    await until(() => expect(v.app.workspace.getLeavesOfType(CONFLICTS_VIEW_TYPE)).toHaveLength(1));
    expect(v.fake.commands.executeCommandById('agentm-vault:open-conflicts-view')).toBe(true);
    await plugin.openConflictsView();
    expect(v.app.workspace.getLeavesOfType(CONFLICTS_VIEW_TYPE)).toHaveLength(1);
    unloadPlugin(plugin);
  });

  it('settings: a bad memory root shows an error naming the fix and is not saved; a good one moves the backend', async () => {
    const { v, plugin } = await startWithPlugin();
    const tab = v.fake.setting.tabs[0]!;
    const el = v.fake.setting.openTab(tab);
    expect(Array.from(el.querySelectorAll('.setting-item-heading')).map((h) => h.textContent)).toEqual([
      'Storage',
      'Commands',
      'Conflicts',
    ]);
    const rootRow = Array.from(el.querySelectorAll<HTMLElement>('.setting-item')).find(
      (r) => r.querySelector('.setting-item-name')?.textContent === 'Memory root folder',
    )!;
    expect(rootRow.querySelector('.setting-item-description')?.textContent).toMatch(
      / Now: \/ \(default: the vault root\)\.$/,
    );
    const input = el.querySelector('.setting-item input[type="text"]') as HTMLInputElement;
    input.value = '../outside';
    input.dispatchEvent(new Event('input'));
    expect(el.querySelector('.setting-item-error')?.textContent).toMatch(/must not contain "\.\."/);
    expect(plugin.settings.memoryRoot).toBe('');
    input.value = 'Agent';
    input.dispatchEvent(new Event('input'));
    await until(() => expect(plugin.context?.folder).toBe('Agent'));
    expect(el.querySelector('.setting-item-error')).toBeNull();
    expect(JSON.parse(await v.app.vault.adapter.read('.obsidian/plugins/agentm-vault/data.json'))).toMatchObject({
      memoryRoot: 'Agent',
    });
    unloadPlugin(plugin);
  });

  it('settings: the default project must be one folder name; a good one is saved without rebuilding the backend', async () => {
    const { v, plugin } = await startWithPlugin();
    const el = v.fake.setting.openTab(v.fake.setting.tabs[0]!);
    const row = Array.from(el.querySelectorAll<HTMLElement>('.setting-item')).find(
      (r) => r.querySelector('.setting-item-name')?.textContent === 'Default project',
    )!;
    const input = row.querySelector('input') as HTMLInputElement;
    const backend = plugin.context?.backend;
    input.value = 'desk/agentm';
    input.dispatchEvent(new Event('input'));
    expect(row.querySelector('.setting-item-error')?.textContent).toBe(
      '"desk/agentm" is not a project folder name: use one name without "/", "\\" or NUL.',
    );
    expect(plugin.settings.defaultProject).toBe('');
    input.value = ' agentm ';
    input.dispatchEvent(new Event('input'));
    await until(async () =>
      expect(JSON.parse(await v.app.vault.adapter.read('.obsidian/plugins/agentm-vault/data.json'))).toMatchObject({
        defaultProject: 'agentm',
      }),
    );
    expect(row.querySelector('.setting-item-error')).toBeNull();
    expect(plugin.context?.backend).toBe(backend);
    unloadPlugin(plugin);
  });
});
