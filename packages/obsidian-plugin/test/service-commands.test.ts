import { MarkdownView } from 'obsidian';
import { describe, expect, it, vi } from 'vitest';
import { validateMemoryForm, type MemoryFormInput } from '../src/commands/memory-form.js';
import type { AgentMServices, SaveNoteRequest } from '../src/services.js';
import type { Editor as FakeEditor } from './fake-obsidian/views.js';
import { shownNotices, unloadPlugin } from './fake-obsidian/testing.js';
import { modal, startWithPlugin } from './helpers/plugin.js';

const VALID: MemoryFormInput = { kind: 'convention', slug: 'pick-stdlib', tags: 'a, b', group: '', body: 'Body line one\r\nline two\n' };

describe('save-memory form validation', () => {
  it('accepts agentm’s patterns and builds the request', () => {
    expect(validateMemoryForm({ ...VALID, group: 'desk/projects/agentm' })).toEqual({
      ok: true,
      request: { kind: 'convention', slug: 'pick-stdlib', tags: ['a', 'b'], body: 'Body line one\r\nline two\n', group: 'desk/projects/agentm' },
    });
  });

  it.each([
    [{ kind: '' }, 'kind', 'Kind is required (e.g. "convention").'],
    [{ kind: 'Convention' }, 'kind', 'Kind "Convention" is not valid: use only lowercase letters, digits and hyphens (e.g. "convention").'],
    [{ slug: '' }, 'slug', 'Slug is required (e.g. "pick-stdlib").'],
    [{ slug: 'pick_stdlib' }, 'slug', 'Slug "pick_stdlib" is not valid: use only lowercase letters, digits and hyphens (e.g. "pick-stdlib").'],
    [{ slug: '../x' }, 'slug', 'Slug "../x" is not valid: use only lowercase letters, digits and hyphens (e.g. "pick-stdlib").'],
    [{ tags: 'ok, Not-OK' }, 'tags', 'Tag "Not-OK" is not valid: use only lowercase letters, digits and hyphens.'],
    [{ group: 'desk//x' }, 'group', 'Group "desk//x" is not valid: use only lowercase letters, digits and hyphens, in segments separated by "/" (e.g. "desk/projects/agentm").'],
    [{ body: ' \n' }, 'body', 'Body is empty: select the text to save first.'],
  ] as const)('%j is refused on %s', (change, field, message) => {
    expect(validateMemoryForm({ ...VALID, ...change })).toEqual({ ok: false, errors: [{ field, message }] });
  });

  it('reports every bad field at once', () => {
    const result = validateMemoryForm({ kind: 'A', slug: 'B', tags: 'C D', group: '', body: 'x' });
    expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual(['kind', 'slug', 'tags', 'tags']);
  });
});

function fakeServices(overrides: Partial<AgentMServices> = {}): AgentMServices & { saved: SaveNoteRequest[] } {
  const saved: SaveNoteRequest[] = [];
  return {
    saved,
    saveNote: async (request) => {
      saved.push(request);
      return { path: `memory/${request.kind}/${request.slug}.md` };
    },
    recall: async (query) => [{ path: 'memory/fix/found.md', title: `found for ${query}`, snippet: 'a snippet', score: 0.9 }],
    activePlanFile: async () => 'desk/projects/agentm/_harness/PLAN.md',
    doctor: async () => ({ status: 'ok', protocol: 'vault', line: 'vault: read/write round trip ok' }),
    ...overrides,
  };
}

describe('commands that need core services', () => {
  it('are not registered when no services are given', async () => {
    const { v, plugin } = await startWithPlugin();
    expect([...v.fake.commands.commands.keys()]).toEqual(['agentm-vault:open-conflicts-view']);
    unloadPlugin(plugin);
  });

  it('are registered with services, with sentence-case names and no default hotkeys', async () => {
    const { v, plugin } = await startWithPlugin({}, { services: fakeServices() });
    const commands = [...v.fake.commands.commands.values()];
    expect(commands.map((c) => c.id).sort()).toEqual(
      ['open-active-plan', 'open-conflicts-view', 'recall', 'save-selection-as-memory', 'show-storage-doctor'].map((id) => `agentm-vault:${id}`),
    );
    for (const c of commands) {
      expect(c.hotkeys).toBeUndefined();
      const name = c.name.replace(/^AgentM: /, '');
      expect(name[0], c.name).toBe(name[0]!.toUpperCase());
      expect(name.slice(1), c.name).toBe(name.slice(1).toLowerCase());
    }
    unloadPlugin(plugin);
  });

  it('"Save selection as memory" asks in a modal, shows each field’s error under it, and saves when valid', async () => {
    const services = fakeServices();
    const { v, plugin } = await startWithPlugin({ 'note.md': 'Use the stdlib.\nMore.\n' }, { services });
    const leaf = v.app.workspace.getLeaf(true);
    await leaf.openFile(v.app.vault.getFileByPath('note.md')!);
    ((leaf.view as MarkdownView).editor as unknown as FakeEditor).selectOffsets(0, 15);
    expect(v.fake.commands.executeCommandById('agentm-vault:save-selection-as-memory')).toBe(true);
    const dialog = modal()!;
    const input = (field: string) => dialog.querySelector(`[data-field="${field}"] input`) as HTMLInputElement;
    expect(input('slug').value).toBe('use-the-stdlib');
    input('kind').value = 'Bad Kind';
    input('kind').dispatchEvent(new Event('input'));
    input('tags').value = 'ok, NOPE';
    input('tags').dispatchEvent(new Event('input'));
    (Array.from(dialog.querySelectorAll('button')).find((b) => b.textContent === 'Save') as HTMLButtonElement).click();
    await new Promise((r) => setTimeout(r, 0));
    expect(dialog.querySelector('[data-field="kind"] .setting-item-error')?.textContent).toMatch(/^Kind "Bad Kind" is not valid/);
    expect(dialog.querySelector('[data-field="tags"] .setting-item-error')?.textContent).toMatch(/^Tag "NOPE" is not valid/);
    expect(services.saved).toEqual([]);
    input('kind').value = 'convention';
    input('kind').dispatchEvent(new Event('input'));
    input('tags').value = 'ok';
    input('tags').dispatchEvent(new Event('input'));
    (Array.from(dialog.querySelectorAll('button')).find((b) => b.textContent === 'Save') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(modal()).toBeNull());
    expect(services.saved).toEqual([{ kind: 'convention', slug: 'use-the-stdlib', tags: ['ok'], body: 'Use the stdlib.' }]);
    expect(shownNotices().at(-1)).toBe('AgentM: saved memory note memory/convention/use-the-stdlib.md');
    unloadPlugin(plugin);
  });

  it('"Save selection as memory" is unavailable without a selection', async () => {
    const { v, plugin } = await startWithPlugin({ 'note.md': 'text\n' }, { services: fakeServices() });
    await v.app.workspace.getLeaf(true).openFile(v.app.vault.getFileByPath('note.md')!);
    expect(v.fake.commands.executeCommandById('agentm-vault:save-selection-as-memory')).toBe(false);
    expect(modal()).toBeNull();
    unloadPlugin(plugin);
  });

  it('"Recall" queries as you type and opens the chosen note', async () => {
    const { v, plugin } = await startWithPlugin({ 'memory/fix/found.md': 'the fix\n' }, { services: fakeServices() });
    v.fake.commands.executeCommandById('agentm-vault:recall');
    const input = document.body.querySelector('.prompt-input') as HTMLInputElement;
    input.value = 'flaky test';
    input.dispatchEvent(new Event('input'));
    const item = await vi.waitFor(() => {
      const el = document.body.querySelector<HTMLElement>('.suggestion-item');
      if (!el) throw new Error('no suggestion yet');
      return el;
    });
    expect(item.textContent).toBe('found for flaky testa snippet');
    item.click();
    await vi.waitFor(() => expect(v.app.workspace.getActiveFile()?.path).toBe('memory/fix/found.md'));
    unloadPlugin(plugin);
  });

  it('"Open the active plan" opens it, or says there is none', async () => {
    const { v, plugin } = await startWithPlugin({ 'desk/projects/agentm/_harness/PLAN.md': '- [ ] x\n' }, { services: fakeServices() });
    v.fake.commands.executeCommandById('agentm-vault:open-active-plan');
    await vi.waitFor(() => expect(v.app.workspace.getActiveFile()?.path).toBe('desk/projects/agentm/_harness/PLAN.md'));
    unloadPlugin(plugin);
    const none = await startWithPlugin({}, { services: fakeServices({ activePlanFile: async () => undefined }) });
    none.v.fake.commands.executeCommandById('agentm-vault:open-active-plan');
    await vi.waitFor(() => expect(shownNotices().at(-1)).toBe('AgentM: no active plan.'));
    unloadPlugin(none.plugin);
  });

  it('"Show storage doctor" shows the verdict', async () => {
    const { v, plugin } = await startWithPlugin({}, { services: fakeServices() });
    v.fake.commands.executeCommandById('agentm-vault:show-storage-doctor');
    await vi.waitFor(() => expect(modal()).not.toBeNull());
    expect(Array.from(modal()!.querySelectorAll('p')).map((p) => p.textContent)).toEqual(['Status: ok', 'Backend: vault', 'vault: read/write round trip ok']);
    (modal()!.querySelector('.modal-close-button') as HTMLElement).click();
    unloadPlugin(plugin);
  });
});
