import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentHash } from '@agentm/core/write-protocol';
import { describe, expect, it } from 'vitest';
import { spawnFixture } from '../../../test/helpers/processes.js';
import { PLAN_VIEW_TYPE, PlanView } from '../src/plans/plan-view.js';
import { RELATED_VIEW_TYPE, RelatedView } from '../src/related/related-view.js';
import { shownNotices, unloadPlugin } from './fake-obsidian/testing.js';
import { button, modal, openByCommand, startWithPlugin, type Started } from './helpers/plugin.js';
import { until } from './helpers/until.js';

const HARNESS = 'desk/projects/app/_harness';
const PLAN = [
  '---',
  'goal: Ship the release',
  'status: open',
  '---',
  '- [x] Build the bundle [id:: build]',
  '- [ ] Run the tests [id:: test] [after:: build]',
  '- [!] Write the changelog [id:: notes] [attempt:: 1]',
  '- [ ] Tag the release [id:: tag]  [dependsOn:: test,notes]',
  '- [/] Deploy [id:: deploy] [agent:: 4242@ci-box]',
  '',
].join('\n');
const PROGRESS = [
  '# Progress',
  '',
  '- 2026-11-26T09:00:00.000Z [kind:: error] [step:: notes] [attempt:: 1] [actor:: 11@box] — no CHANGELOG.md in the repository',
  '- 2026-11-26T09:00:01.000Z [kind:: transition] [step:: notes] [attempt:: 1] [actor:: 11@box] — running → failed',
  '',
].join('\n');

const FILES = {
  [`${HARNESS}/PLAN.md`]: PLAN,
  [`${HARNESS}/progress.md`]: PROGRESS,
  [`${HARNESS}/PLAN-old.md`]: '---\nstatus: done\n---\n- [x] old [id:: old]\n',
  'desk/projects/app/notes/readme.md': '# App\n',
};

/** The plugin started over the files, a note of project `app` open, and the plan view open and drawn. */
async function planView(files: Record<string, string> = FILES, host = {}): Promise<Started & { view: PlanView }> {
  const s = await startWithPlugin(files, { host });
  await s.v.app.workspace.getLeaf(false).openFile(s.v.app.vault.getFileByPath('desk/projects/app/notes/readme.md')!);
  const view = await openByCommand(s, 'open-plan-view', PLAN_VIEW_TYPE, PlanView);
  await until(() => expect(view.contentEl.querySelector('.agentm-step')).not.toBeNull());
  return { ...s, view };
}

const planFile = (s: Started) => join(s.v.dir, HARNESS, 'PLAN.md');
const progressFile = (s: Started) => join(s.v.dir, HARNESS, 'progress.md');

function step(view: PlanView, id: string): HTMLElement {
  const el = view.contentEl.querySelector<HTMLElement>(`.agentm-step[data-step="${CSS.escape(id)}"]`);
  if (!el) throw new Error(`no step ${id} drawn`);
  return el;
}

/** Types `text` as the reason in the open reason modal and presses its confirm button. */
function giveReason(text: string, confirm: string): void {
  const el = modal()!;
  const area = el.querySelector('textarea')!;
  area.value = text;
  area.dispatchEvent(new Event('input'));
  button(el, confirm).click();
}

describe('the plan view', () => {
  it("draws the project's plans, the open one expanded: status icons, dependencies (after:: and dependsOn::), attempts, failure reasons, latest progress", async () => {
    const s = await planView();
    const { view } = s;
    expect(view.contentEl.querySelector('.agentm-plans-header')?.textContent).toContain('Plans of app');
    const cards = Array.from(view.contentEl.querySelectorAll<HTMLElement>('.agentm-plan'));
    expect(cards.map((c) => [c.dataset['plan'], c.querySelector('.agentm-plan-title')?.textContent])).toEqual([
      ['PLAN', 'Ship the release'],
      ['old', 'old'],
    ]);
    expect(cards[1]!.querySelector('.agentm-step')).toBeNull(); // a closed plan stays folded
    const statuses = Array.from(cards[0]!.querySelectorAll<HTMLElement>('.agentm-step')).map((e) => [
      e.dataset['step'],
      e.dataset['status'],
      e.querySelector('.agentm-step-icon svg')?.getAttribute('data-icon'),
    ]);
    expect(statuses).toEqual([
      ['build', 'done', 'circle-check'],
      ['test', 'ready', 'circle-dot'],
      ['notes', 'failed', 'circle-x'],
      ['tag', 'pending', 'circle'],
      ['deploy', 'running', 'loader'],
    ]);
    expect(step(view, 'tag').querySelector('.agentm-step-facts')?.textContent).toBe(
      'tag · pending · after test, notes',
    );
    expect(step(view, 'notes').querySelector('.agentm-step-facts')?.textContent).toBe('notes · failed · attempt 1');
    expect(step(view, 'notes').querySelector('.agentm-step-failure')?.textContent).toBe(
      'no CHANGELOG.md in the repository',
    );
    const actions = (id: string) => Array.from(step(view, id).querySelectorAll('button')).map((b) => b.textContent);
    expect(actions('test')).toEqual(['Mark done', 'Mark failed…', 'Cancel step…']);
    expect(actions('notes')).toEqual(['Retry', 'Cancel step…']);
    expect(actions('deploy')).toEqual([]); // an agentm run holds it: only that run records it
    expect(actions('build')).toEqual([]);
    const log = Array.from(cards[0]!.querySelectorAll('.agentm-plan-entry')).map((e) => e.textContent);
    expect(log).toEqual(['09:00:01 notes running → failed', '09:00:00 notes no CHANGELOG.md in the repository']);
    unloadPlugin(s.plugin);
  });

  it('redraws when an agent writes the plan (a vault event, after a debounce), and reads nothing without one', async () => {
    const s = await planView();
    const reads = s.view.reads;
    await new Promise((resolve) => setTimeout(resolve, 100)); // many debounce windows: no timer reads
    expect(s.view.reads).toBe(reads);
    await writeFile(
      planFile(s),
      PLAN.replace('- [ ] Run the tests [id:: test]', '- [/] Run the tests [id:: test] [agent:: 77@ci-box]'),
    );
    await s.v.fake.vault.rescan(); // the app's file watcher
    await until(() => expect(step(s.view, 'test').dataset['status']).toBe('running'));
    expect(s.view.reads).toBe(reads + 1);
    unloadPlugin(s.plugin);
  });

  it('marks a step done and failed (with its reason) through core: the plan line changes, the log names the person', async () => {
    const s = await planView();
    button(step(s.view, 'test'), 'Mark done').click();
    await s.view.actionSettled();
    expect(await readFile(planFile(s), 'utf8')).toContain(
      '- [x] Run the tests [id:: test] [after:: build] [agent:: tester (Obsidian)]',
    );
    expect(shownNotices().at(-1)).toBe('AgentM: step "test" done.');
    expect(step(s.view, 'test').dataset['status']).toBe('done');
    expect(await readFile(progressFile(s), 'utf8')).toMatch(
      /\[step:: test\] \[attempt:: 0\] \[actor:: tester \(Obsidian\)\] \[from:: running\] \[to:: done\] — running → done/,
    );

    await writeFile(
      join(s.v.dir, HARNESS, 'PLAN.md'),
      (await readFile(planFile(s), 'utf8')).replace('[!] Write', '[ ] Write'),
    );
    await s.v.fake.vault.rescan();
    await until(() => expect(step(s.view, 'notes').dataset['status']).toBe('ready'));
    button(step(s.view, 'notes'), 'Mark failed…').click();
    button(modal()!, 'Mark failed').click(); // no reason yet: refused in the modal
    expect(modal()!.querySelector('.setting-item-error')?.textContent).toMatch(/Say what went wrong/);
    giveReason('the changelog tool is missing', 'Mark failed');
    await s.view.actionSettled();
    expect(step(s.view, 'notes').querySelector('.agentm-step-failure')?.textContent).toBe(
      'the changelog tool is missing',
    );
    unloadPlugin(s.plugin);
  });

  it('retries a failed step (attempt + 1), cancels a step with its reason, and cancels and reopens the plan', async () => {
    const s = await planView();
    button(step(s.view, 'notes'), 'Retry').click();
    await s.view.actionSettled();
    expect(await readFile(planFile(s), 'utf8')).toContain('- [ ] Write the changelog [id:: notes] [attempt:: 2]');
    expect(step(s.view, 'notes').querySelector('.agentm-step-facts')?.textContent).toBe('notes · ready · attempt 2');

    button(step(s.view, 'tag'), 'Cancel step…').click();
    giveReason('tagged by hand', 'Cancel step');
    await s.view.actionSettled();
    expect(step(s.view, 'tag').dataset['status']).toBe('cancelled');
    expect(await readFile(progressFile(s), 'utf8')).toContain('tagged by hand');

    const card = () => s.view.contentEl.querySelector<HTMLElement>('.agentm-plan[data-plan="PLAN"]')!;
    button(card(), 'Cancel plan…').click();
    giveReason('release moved to next week', 'Cancel plan');
    await s.view.actionSettled();
    expect(await readFile(planFile(s), 'utf8')).toMatch(/^status: cancelled$/m);
    button(card(), 'Reopen plan').click();
    await s.view.actionSettled();
    expect(await readFile(planFile(s), 'utf8')).toMatch(/^status: open$/m);
    expect(await readFile(progressFile(s), 'utf8')).toContain('plan cancelled → open: reopened in Obsidian');
    unloadPlugin(s.plugin);
  });

  it('refuses an action on a plan that changed since it was drawn, draws the new one, and never writes over it', async () => {
    const s = await planView();
    const agent = PLAN.replace(
      '- [ ] Run the tests [id:: test]',
      '- [/] Run the tests [id:: test] [agent:: 99@ci-box]',
    );
    await writeFile(planFile(s), agent); // no watcher run: the view still shows the old plan
    const progress = await readFile(progressFile(s), 'utf8');
    button(step(s.view, 'test'), 'Mark done').click();
    await s.view.actionSettled();
    expect(shownNotices().at(-1)).toBe(
      'AgentM: "Ship the release" changed since the plan view showed it (an agent wrote it), so nothing was changed. The view now shows the new version: choose again.',
    );
    expect(await readFile(planFile(s), 'utf8')).toBe(agent);
    expect(await readFile(progressFile(s), 'utf8')).toBe(progress);
    expect(step(s.view, 'test').dataset['status']).toBe('running');
    expect(Array.from(step(s.view, 'test').querySelectorAll('button'))).toEqual([]);
    unloadPlugin(s.plugin);
  });
});

describe('plan view actions while an agent holds the vault lock', () => {
  /** An agent (a real process) holding the lock of the vault; told later to write `text` or just release. */
  async function agentHolding(s: Started, text: string) {
    const agent = spawnFixture('plan-agent.mjs', [s.v.dir, s.v.lockRoot, planFile(s), text]);
    await agent.waitForLine(/^held /);
    return agent;
  }

  it('waits (the status bar says so) and, when the agent wrote the plan meanwhile, refuses and keeps the agent’s write', async () => {
    const s = await planView();
    const agentText = PLAN.replace('- [ ] Run the tests [id:: test]', '- [x] Run the tests [id:: test]');
    const agent = await agentHolding(s, agentText);
    const progress = await readFile(progressFile(s), 'utf8');
    button(step(s.view, 'test'), 'Mark failed…').click();
    giveReason('flaky', 'Mark failed');
    await until(() => expect(s.plugin.lockIndicator!.text).toBe('AgentM: waiting for an agent to finish writing…'));
    expect(
      Array.from(s.view.contentEl.querySelectorAll<HTMLButtonElement>('.agentm-step button')).every((b) => b.disabled),
    ).toBe(true);
    expect(await readFile(planFile(s), 'utf8')).toBe(PLAN);
    agent.child.stdin!.write('write\n');
    await agent.waitForLine(/^released$/);
    await s.view.actionSettled();
    expect(await readFile(planFile(s), 'utf8')).toBe(agentText);
    expect(await readFile(progressFile(s), 'utf8')).toBe(progress);
    expect(shownNotices().at(-1)).toMatch(/changed since the plan view showed it/);
    expect(step(s.view, 'test').dataset['status']).toBe('done');
    unloadPlugin(s.plugin);
  });

  it('lands once the agent releases the lock without touching the plan', async () => {
    const s = await planView();
    const agent = await agentHolding(s, 'unused');
    button(step(s.view, 'test'), 'Mark done').click();
    await until(() => expect(s.plugin.lockIndicator!.text).toBe('AgentM: waiting for an agent to finish writing…'));
    agent.child.stdin!.write('release\n');
    await s.view.actionSettled();
    expect(await readFile(planFile(s), 'utf8')).toContain('- [x] Run the tests');
    expect(shownNotices().at(-1)).toBe('AgentM: step "test" done.');
    unloadPlugin(s.plugin);
  });

  it('gives up after the lock wait with a notice that says so, and writes nothing', async () => {
    const s = await planView();
    s.plugin.settings.lockWaitSeconds = 1;
    await s.plugin.saveSettings();
    await s.view.rendered();
    const agent = await agentHolding(s, 'unused');
    const before = contentHash(await readFile(planFile(s), 'utf8'));
    button(step(s.view, 'test'), 'Mark done').click();
    await s.view.actionSettled();
    expect(shownNotices().at(-1)).toMatch(
      /could not change step "test": could not take the vault lock .* within 1\.00 s/,
    );
    expect(contentHash(await readFile(planFile(s), 'utf8'))).toBe(before);
    agent.child.stdin!.write('release\n');
    await agent.exited;
    unloadPlugin(s.plugin);
  });
});

describe('the plan view and related memories', () => {
  it('selecting a step shows the memories related to it', async () => {
    const s = await planView({
      ...FILES,
      'memory/fix/changelog-tool.md':
        '---\ntype: fix\nstatus: active\n---\n\n# Changelog tool\n\nInstall git-cliff before writing the changelog.\n',
    });
    const related = await openByCommand(s, 'open-related-memories', RELATED_VIEW_TYPE, RelatedView);
    step(s.view, 'notes').click();
    await until(() =>
      expect(related.contentEl.querySelector('.agentm-related-header')?.textContent).toBe('Related to step notes'),
    );
    await related.rendered();
    const listed = Array.from(related.contentEl.querySelectorAll<HTMLElement>('.agentm-related-item')).map(
      (e) => e.dataset['path'],
    );
    expect(listed[0]).toBe('memory/fix/changelog-tool.md');
    expect(step(s.view, 'notes').classList.contains('is-selected')).toBe(true);
    unloadPlugin(s.plugin);
  });
});
