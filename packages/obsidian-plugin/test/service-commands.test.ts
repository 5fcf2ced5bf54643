import { MarkdownView } from 'obsidian';
import { DEFAULT_VOCABULARY, NoteExistsError, type Vocabulary } from '@agentm/core/memory';
import { describe, expect, it } from 'vitest';
import { validateMemoryForm, type MemoryFormInput } from '../src/commands/memory-form.js';
import type { AgentMServices, SaveNoteRequest } from '../src/services.js';
import type { Editor as FakeEditor } from './fake-obsidian/views.js';
import { nextModal, shownNotices, unloadPlugin } from './fake-obsidian/testing.js';
import { modal, runCommand, startWithPlugin } from './helpers/plugin.js';
import { ALL_COMMANDS } from './helpers/services.js';
import { until } from './helpers/until.js';

const VALID: MemoryFormInput = {
  kind: 'convention',
  slug: 'pick-stdlib',
  tags: 'a, b',
  group: '',
  body: 'Body line one\r\nline two\n',
};

describe('save-memory form validation (core’s checks and messages)', () => {
  it('accepts agentm’s patterns and builds the request', () => {
    expect(validateMemoryForm({ ...VALID, group: 'desk/projects/agentm' })).toEqual({
      ok: true,
      request: {
        kind: 'convention',
        slug: 'pick-stdlib',
        tags: ['a', 'b'],
        body: 'Body line one\r\nline two\n',
        group: 'desk/projects/agentm',
      },
    });
  });

  it.each([
    [
      { kind: '' },
      'kind',
      'invalid kind "": it must match ^[a-z0-9-]+$ (lower-case letters, digits and hyphens), e.g. convention',
    ],
    [
      { kind: 'Convention' },
      'kind',
      'invalid kind "Convention": it must match ^[a-z0-9-]+$ (lower-case letters, digits and hyphens), e.g. convention',
    ],
    [
      { kind: 'opinion' },
      'kind',
      `kind "opinion" is in neither register of the filing vocabulary. Valid memory types: preference, convention, reference, workflow, fix, idea; record kinds: ${DEFAULT_VOCABULARY.recordKinds.join(', ')}.`,
    ],
    [
      { slug: '' },
      'slug',
      'invalid slug "": it must match ^[a-z0-9-]+$ (lower-case letters, digits and hyphens), e.g. pick-stdlib',
    ],
    [
      { slug: 'pick_stdlib' },
      'slug',
      'invalid slug "pick_stdlib": it must match ^[a-z0-9-]+$ (lower-case letters, digits and hyphens), e.g. pick-stdlib',
    ],
    [
      { slug: '../x' },
      'slug',
      'invalid slug "../x": it must match ^[a-z0-9-]+$ (lower-case letters, digits and hyphens), e.g. pick-stdlib',
    ],
    [
      { tags: 'ok, Not-OK' },
      'tags',
      'invalid tag "Not-OK": it must match ^[a-z0-9-]+$ (lower-case letters, digits and hyphens), e.g. build-tools',
    ],
    [
      { group: 'desk//x' },
      'group',
      'invalid group "desk//x": it must match ^[a-z0-9-]+(/[a-z0-9-]+)*$ (lower-case letters, digits and hyphens, segments joined by /), e.g. desk/projects/agentm',
    ],
    [{ body: ' \n' }, 'body', 'Body is empty: select the text to save first.'],
  ] as const)('%j is refused on %s', (change, field, message) => {
    expect(validateMemoryForm({ ...VALID, ...change })).toEqual({ ok: false, errors: [{ field, message }] });
  });

  it('accepts a retired name (core files it under its replacement) and a vocabulary from config', () => {
    expect(validateMemoryForm({ ...VALID, kind: 'decision' }).ok).toBe(true);
    const custom: Vocabulary = { ...DEFAULT_VOCABULARY, types: ['opinion'] };
    expect(validateMemoryForm({ ...VALID, kind: 'opinion' }, custom).ok).toBe(true);
    expect(validateMemoryForm({ ...VALID, kind: 'convention' }, custom).ok).toBe(false);
  });

  it('reports every bad field at once', () => {
    const result = validateMemoryForm({ kind: 'A', slug: 'B', tags: 'C D', group: '', body: 'x' });
    expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual(['kind', 'slug', 'tags', 'tags']);
  });
});

function fakeServices(
  overrides: Partial<AgentMServices> = {},
): AgentMServices & { saved: SaveNoteRequest[]; queries: string[] } {
  const saved: SaveNoteRequest[] = [];
  const queries: string[] = [];
  return {
    saved,
    queries,
    saveForm: async () => ({ vocabulary: DEFAULT_VOCABULARY, group: 'desk/projects/agentm', project: 'agentm' }),
    saveNote: async (request) => {
      saved.push(request);
      return { path: `memory/${request.kind}/${request.slug}.md` };
    },
    recall: async (query) => {
      queries.push(query);
      return [
        { path: 'memory/fix/found.md', title: `found for ${query}`, snippet: 'a snippet', kind: 'fix', score: 0.9 },
      ];
    },
    related: async () => [],
    planBoard: async () => ({ project: undefined, folder: undefined, plans: [] }),
    openPlan: async () => Promise.reject(new Error('no plans in these tests')),
    activePlanFiles: async () => ({
      project: 'agentm',
      plans: [{ name: 'PLAN', title: 'PLAN', path: 'desk/projects/agentm/_harness/PLAN.md' }],
    }),
    doctor: async () => ({
      checks: [
        { id: 'storage', status: 'ok', message: "selected backend 'vault' (configured) — registered" },
        { id: 'agreement', status: 'fail', message: 'this editor keeps memory in /v', fix: 'set the memory root' },
      ],
      memoryRoot: { folder: '/', source: 'default: the vault root', path: '/v' },
    }),
    ...overrides,
  };
}

const input = (dialog: HTMLElement, field: string) =>
  dialog.querySelector(`[data-field="${field}"] input`) as HTMLInputElement;
const type = (el: HTMLInputElement, value: string) => {
  el.value = value;
  el.dispatchEvent(new Event('input'));
};
const click = (root: ParentNode, text: string) =>
  (Array.from(root.querySelectorAll('button')).find((b) => b.textContent === text) as HTMLButtonElement).click();
const suggestions = async (selector: string) =>
  until(() => {
    const found = Array.from(document.body.querySelectorAll<HTMLElement>(selector));
    if (found.length === 0) throw new Error(`no ${selector} yet`);
    return found;
  });

async function openSaveModal(services: AgentMServices) {
  const s = await startWithPlugin({ 'note.md': 'Use the stdlib.\nMore.\n' }, { services });
  const leaf = s.v.app.workspace.getLeaf(true);
  await leaf.openFile(s.v.app.vault.getFileByPath('note.md')!);
  ((leaf.view as MarkdownView).editor as unknown as FakeEditor).selectOffsets(0, 15);
  const opened = nextModal();
  expect(s.v.fake.commands.executeCommandById('agentm-vault:save-selection-as-memory')).toBe(true);
  return { ...s, dialog: (await opened).modalEl };
}

describe('commands that need core services', () => {
  it('are registered with sentence-case names and no default hotkeys', async () => {
    const { v, plugin } = await startWithPlugin({}, { services: fakeServices() });
    const commands = [...v.fake.commands.commands.values()];
    expect(commands.map((c) => c.id).sort()).toEqual(ALL_COMMANDS);
    for (const c of commands) {
      expect(c.hotkeys).toBeUndefined();
      const name = c.name.replace(/^AgentM: /, '');
      expect(name[0], c.name).toBe(name[0]!.toUpperCase());
      expect(name.slice(1), c.name).toBe(name.slice(1).toLowerCase());
    }
    unloadPlugin(plugin);
  });

  it('"Save selection as memory" prefills the project’s group, suggests kinds, shows core’s errors under each field and writes nothing until valid', async () => {
    const services = fakeServices();
    const { plugin, dialog } = await openSaveModal(services);
    expect(input(dialog, 'slug').value).toBe('use-the-stdlib');
    expect(input(dialog, 'group').value).toBe('desk/projects/agentm');

    type(input(dialog, 'kind'), 'workf');
    const [item, ...rest] = await suggestions('.suggestion-container .suggestion-item');
    expect([item!.textContent, ...rest.map((r) => r.textContent)]).toEqual([
      'workflowmemory type',
      'workflow-patternretired: files as workflow',
    ]);
    item!.click();
    expect(input(dialog, 'kind').value).toBe('workflow');
    expect(document.body.querySelector('.suggestion-container')).toBeNull();

    type(input(dialog, 'slug'), 'Bad Slug');
    type(input(dialog, 'tags'), 'ok, NOPE');
    click(dialog, 'Save');
    await until(() =>
      expect(dialog.querySelector('[data-field="tags"] .setting-item-error')?.textContent).toMatch(
        /^invalid tag "NOPE"/,
      ),
    );
    expect(dialog.querySelector('[data-field="slug"] .setting-item-error')?.textContent).toMatch(
      /^invalid slug "Bad Slug": it must match/,
    );
    expect(dialog.querySelector('[data-field="kind"] .setting-item-error')).toBeNull();
    expect(services.saved).toEqual([]);

    type(input(dialog, 'slug'), 'use-the-stdlib');
    type(input(dialog, 'tags'), 'ok');
    click(dialog, 'Save');
    await until(() => expect(modal()).toBeNull());
    expect(services.saved).toEqual([
      {
        kind: 'workflow',
        slug: 'use-the-stdlib',
        tags: ['ok'],
        body: 'Use the stdlib.',
        group: 'desk/projects/agentm',
      },
    ]);
    expect(shownNotices().at(-1)).toBe('AgentM: saved memory note memory/workflow/use-the-stdlib.md');
    unloadPlugin(plugin);
  });

  it('"Save selection as memory" shows a refused save under the slug and keeps the modal open', async () => {
    const services = fakeServices({ saveNote: async () => Promise.reject(new NoteExistsError('memory/fix/x.md')) });
    const { plugin, dialog } = await openSaveModal(services);
    type(input(dialog, 'kind'), 'fix');
    click(dialog, 'Save');
    await until(() =>
      expect(dialog.querySelector('[data-field="slug"] .setting-item-error')?.textContent).toMatch(
        /^entry already exists at memory\/fix\/x\.md/,
      ),
    );
    expect(modal()).toBe(dialog);
    unloadPlugin(plugin);
  });

  it('"Save selection as memory" is unavailable without a selection', async () => {
    const { v, plugin } = await startWithPlugin({ 'note.md': 'text\n' }, { services: fakeServices() });
    await v.app.workspace.getLeaf(true).openFile(v.app.vault.getFileByPath('note.md')!);
    expect(v.fake.commands.executeCommandById('agentm-vault:save-selection-as-memory')).toBe(false);
    expect(modal()).toBeNull();
    unloadPlugin(plugin);
  });

  it('"Recall" waits for typing to pause, asks once for the last query, and opens the chosen note', async () => {
    const services = fakeServices();
    const { v, plugin } = await startWithPlugin({ 'memory/fix/found.md': 'the fix\n' }, { services });
    v.fake.commands.executeCommandById('agentm-vault:recall');
    const prompt = document.body.querySelector('.prompt-input') as HTMLInputElement;
    for (const partial of ['f', 'fl', 'flaky', 'flaky test']) type(prompt, partial);
    const [item] = await suggestions('.prompt-results .suggestion-item');
    expect(services.queries).toEqual(['flaky test']);
    expect(item!.textContent).toBe('found for flaky testfix · memory/fix/found.mda snippet');
    item!.click();
    await until(() => expect(v.app.workspace.getActiveFile()?.path).toBe('memory/fix/found.md'));
    unloadPlugin(plugin);
  });

  it('"Open the active plan" opens the only plan, offers a picker for several, and says why when there is none', async () => {
    const files = {
      'desk/projects/agentm/_harness/PLAN.md': '- [ ] x\n',
      'desk/projects/agentm/_harness/PLAN-api.md': '- [ ] y\n',
    };
    const one = await startWithPlugin(files, { services: fakeServices() });
    await runCommand(one, 'open-active-plan');
    expect(one.v.app.workspace.getActiveFile()?.path).toBe('desk/projects/agentm/_harness/PLAN.md');
    unloadPlugin(one.plugin);

    const plans = [
      { name: 'PLAN', title: 'Ship the release', path: 'desk/projects/agentm/_harness/PLAN.md' },
      { name: 'api', title: 'api', path: 'desk/projects/agentm/_harness/PLAN-api.md' },
    ];
    const two = await startWithPlugin(files, {
      services: fakeServices({ activePlanFiles: async () => ({ project: 'agentm', plans }) }),
    });
    two.v.fake.commands.executeCommandById('agentm-vault:open-active-plan');
    const items = await suggestions('.prompt-results .suggestion-item');
    expect(items.map((i) => i.textContent)).toEqual(['Ship the release (PLAN)', 'api']);
    items[1]!.click();
    await until(() =>
      expect(two.v.app.workspace.getActiveFile()?.path).toBe('desk/projects/agentm/_harness/PLAN-api.md'),
    );
    unloadPlugin(two.plugin);

    const none = await startWithPlugin(
      {},
      {
        services: fakeServices({
          activePlanFiles: async () => ({ project: undefined, plans: [], reason: 'no current project.' }),
        }),
      },
    );
    await runCommand(none, 'open-active-plan');
    expect(shownNotices().at(-1)).toBe('AgentM: no current project.');
    unloadPlugin(none.plugin);
  });

  it('"Show storage doctor" shows the memory root, then each of the workspace’s checks as agentm doctor words it', async () => {
    const s = await startWithPlugin({}, { services: fakeServices() });
    const { plugin } = s;
    await runCommand(s, 'show-storage-doctor');
    expect(modal()).not.toBeNull();
    expect(modal()!.querySelector('.agentm-doctor-root')?.textContent).toBe(
      'Memory root: / (default: the vault root), on disk /v',
    );
    const checks = Array.from(modal()!.querySelectorAll('li'));
    expect(checks.map((li) => li.textContent)).toEqual([
      "storage [OK] selected backend 'vault' (configured) — registered",
      'agreement [FAIL] this editor keeps memory in /v — set the memory root',
    ]);
    expect(checks[1]!.classList.contains('agentm-doctor-fail')).toBe(true);
    (modal()!.querySelector('.modal-close-button') as HTMLElement).click();
    unloadPlugin(plugin);
  });
});
