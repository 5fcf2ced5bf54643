import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AbstractInputSuggest,
  Component,
  FuzzySuggestModal,
  Modal,
  normalizePath,
  Notice,
  Setting,
  TFile,
  TFolder,
  type TAbstractFile,
} from 'obsidian';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp.js';
import { finishStartup, leaksSince, shownNotices, snapshot, startApp } from './fake-obsidian/testing.js';

async function vaultWith(files: Record<string, string>) {
  const dir = await tempDir('agentm-fake-');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  const app = startApp(dir);
  const events: string[] = [];
  for (const name of ['create', 'modify', 'delete'] as const)
    app.vault.on(name, (f: TAbstractFile) => events.push(`${name} ${f.path}`));
  app.vault.on('rename', (f: TAbstractFile, old: string) => events.push(`rename ${old} -> ${f.path}`));
  return { dir, app, events };
}

describe('the fake vault', () => {
  it('indexes the directory on start-up, firing create for each file and folder, and hides dot paths', async () => {
    const { app, events } = await vaultWith({
      'a.md': 'a',
      'sub/b.md': 'b',
      '.obsidian/app.json': '{}',
      'sub/.hidden.md': 'x',
    });
    await finishStartup(app);
    expect(events).toEqual(['create sub', 'create sub/b.md', 'create a.md']);
    expect(
      app.vault
        .getMarkdownFiles()
        .map((f) => f.path)
        .sort(),
    ).toEqual(['a.md', 'sub/b.md']);
    const b = app.vault.getAbstractFileByPath('sub/b.md');
    expect(b).toBeInstanceOf(TFile);
    expect((b as TFile).basename).toBe('b');
    expect(b?.parent).toBeInstanceOf(TFolder);
    expect(app.vault.getRoot().isRoot()).toBe(true);
    expect(app.workspace.layoutReady).toBe(true);
  });

  it('fires events for changes through the Vault API at once and for changes on disk on rescan', async () => {
    const { dir, app, events } = await vaultWith({ 'a.md': 'a' });
    await finishStartup(app);
    events.length = 0;
    const created = await app.vault.create('n.md', 'new');
    await app.vault.process(created, (t) => `${t}!`);
    await app.vault.rename(created, 'm.md');
    expect(events).toEqual(['create n.md', 'modify n.md', 'rename n.md -> m.md']);
    await expect(app.vault.create('m.md', 'again')).rejects.toThrow('File already exists.');
    events.length = 0;
    const a = app.vault.getFileByPath('a.md')!;
    expect(await app.vault.cachedRead(a)).toBe('a');
    await writeFile(join(dir, 'a.md'), 'changed elsewhere');
    await writeFile(join(dir, 'x.md'), 'from another process');
    await rename(join(dir, 'm.md'), join(dir, 'moved.md'));
    expect(await app.vault.cachedRead(a)).toBe('a');
    await app.vault.rescan();
    expect(events.sort()).toEqual(['create moved.md', 'create x.md', 'delete m.md', 'modify a.md']);
    expect(await app.vault.cachedRead(a)).toBe('changed elsewhere');
    await app.vault.rescan();
    expect(events).toHaveLength(4);
  });

  it('process writes nothing when its function throws; trash moves to .trash and fires delete', async () => {
    const { dir, app, events } = await vaultWith({ 'a.md': 'a' });
    await finishStartup(app);
    const a = app.vault.getFileByPath('a.md')!;
    await expect(
      app.vault.process(a, () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('a');
    await app.fileManager.trashFile(a);
    expect(await readFile(join(dir, '.trash', 'a.md'), 'utf8')).toBe('a');
    expect(app.vault.getFileByPath('a.md')).toBeNull();
    expect(events.at(-1)).toBe('delete a.md');
  });

  it('the adapter sees hidden files, lists vault-relative paths and refuses to rename onto an existing file', async () => {
    const { app } = await vaultWith({ 'a.md': 'a', 'b.md': 'b', '.dot/c.md': 'c' });
    expect(await app.vault.adapter.list('/')).toEqual({
      files: expect.arrayContaining(['a.md', 'b.md']),
      folders: ['.dot'],
    });
    expect(await app.vault.adapter.list('.dot')).toEqual({ files: ['.dot/c.md'], folders: [] });
    expect(await app.vault.adapter.stat('nope.md')).toBeNull();
    expect((await app.vault.adapter.stat('.dot'))?.type).toBe('folder');
    await expect(app.vault.adapter.rename('a.md', 'b.md')).rejects.toThrow('Destination file already exists!');
    await rm(join(app.vault.adapter.getBasePath(), 'b.md'));
    await app.vault.adapter.rename('a.md', 'b.md');
    expect(await app.vault.adapter.read('b.md')).toBe('a');
  });
});

describe('the fake DOM and components', () => {
  it('createEl builds elements with classes, attributes and text, never through HTML', () => {
    const root = createDiv();
    const el = root.createEl('button', { cls: 'mod-cta x', text: '<b>not bold</b>', attr: { 'data-x': 1 } });
    expect(el.className).toBe('mod-cta x');
    expect(el.getAttr('data-x')).toBe('1');
    expect(el.textContent).toBe('<b>not bold</b>');
    expect(el.children).toHaveLength(0);
    root.empty();
    expect(root.childNodes).toHaveLength(0);
  });

  it('unloading a component removes its events, DOM listeners and intervals', () => {
    const before = snapshot();
    const c = new Component();
    c.load();
    const target = document.body.createDiv();
    const app = startApp('/nonexistent');
    c.registerEvent(app.vault.on('create', () => undefined));
    c.registerDomEvent(target, 'click', () => undefined);
    c.registerDomEvent(window, 'resize', () => undefined);
    c.registerInterval(window.setInterval(() => undefined, 60_000));
    const live = leaksSince(before);
    expect([live.eventRefs.length, live.domListeners.length, live.intervals.length]).toEqual([1, 2, 1]);
    c.unload();
    expect(leaksSince(before)).toEqual({ intervals: [], eventRefs: [], domListeners: [] });
  });

  it('a modal attaches on open and detaches on close; notices are recorded', () => {
    const app = startApp('/nonexistent');
    const modal = new Modal(app as never).setTitle('Title');
    new Setting(modal.contentEl).setName('Name').setHeading();
    modal.open();
    expect(document.body.querySelector('.modal .modal-title')?.textContent).toBe('Title');
    expect(document.body.querySelector('.modal .setting-item-heading .setting-item-name')?.textContent).toBe('Name');
    modal.close();
    expect(document.body.querySelector('.modal')).toBeNull();
    new Notice('hello');
    expect(shownNotices().at(-1)).toBe('hello');
  });

  it('a fuzzy suggest modal filters its items as the user types and chooses on click (closing first)', async () => {
    const app = startApp('/nonexistent');
    const chosen: string[] = [];
    class Pick extends FuzzySuggestModal<string> {
      getItems() {
        return ['progress.md', 'PLAN.md', 'PLAN-api.md'];
      }
      getItemText(item: string) {
        return item;
      }
      onChooseItem(item: string) {
        chosen.push(`${item} (open: ${document.body.querySelector('.prompt') !== null})`);
      }
    }
    new Pick(app as never).open();
    const input = document.body.querySelector('.prompt-input') as HTMLInputElement;
    input.value = 'plapi';
    input.dispatchEvent(new Event('input'));
    await new Promise((r) => setTimeout(r, 0));
    const items = Array.from(document.body.querySelectorAll<HTMLElement>('.suggestion-item'));
    expect(items.map((i) => i.textContent)).toEqual(['PLAN-api.md']);
    items[0]!.click();
    expect(chosen).toEqual(['PLAN-api.md (open: false)']);
  });

  it('an input suggest shows matches as the user types, hands a click to onSelect, closes on none or Escape, and drops stale answers', async () => {
    const app = startApp('/nonexistent');
    const input = document.body.createEl('input', { type: 'text' });
    let slow: ((v: string[]) => void) | undefined;
    class Kinds extends AbstractInputSuggest<string> {
      protected getSuggestions(query: string): string[] | Promise<string[]> {
        if (query === 'slow') return new Promise((resolve) => (slow = resolve));
        return ['fix', 'idea', 'reference'].filter((k) => k.includes(query));
      }
      renderSuggestion(value: string, el: HTMLElement) {
        el.setText(value);
      }
    }
    const selected: string[] = [];
    const suggest = new Kinds(app as never, input).onSelect((value) =>
      selected.push(`${value} (input: ${input.value})`),
    );
    const typeIn = async (value: string) => {
      input.value = value;
      input.dispatchEvent(new Event('input'));
      await new Promise((r) => setTimeout(r, 0));
    };
    const shown = () =>
      Array.from(document.body.querySelectorAll('.suggestion-container .suggestion-item')).map((i) => i.textContent);

    await typeIn('e');
    expect(shown()).toEqual(['idea', 'reference']);
    (document.body.querySelector('.suggestion-container .suggestion-item') as HTMLElement).click();
    expect(selected).toEqual(['idea (input: e)']); // the callback fills the input and closes, not the suggest
    suggest.setValue('idea');
    expect(suggest.getValue()).toBe('idea');
    await typeIn('zzz');
    expect(document.body.querySelector('.suggestion-container')).toBeNull();
    await typeIn('fi');
    expect(shown()).toEqual(['fix']);
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(document.body.querySelector('.suggestion-container')).toBeNull();
    await typeIn('slow');
    await typeIn('ref');
    slow?.(['stale']);
    await new Promise((r) => setTimeout(r, 0));
    expect(shown()).toEqual(['reference']);
    suggest.close();
    input.detach();
  });

  it('the workspace says which file is active: file-open when it changes, the last file while a side view is active', async () => {
    const { app } = await vaultWith({ 'a.md': 'a', 'b.md': 'b' });
    await finishStartup(app);
    const opened: Array<string | null> = [];
    app.workspace.on('file-open', (file) => opened.push((file as TFile | null)?.path ?? null));
    const a = app.workspace.getLeaf(true);
    await a.openFile(app.vault.getFileByPath('a.md')!);
    const b = app.workspace.getLeaf(true);
    await b.openFile(app.vault.getFileByPath('b.md')!);
    app.workspace.setActiveLeaf(a); // switching tabs changes the active file
    expect(opened).toEqual(['a.md', 'b.md', 'a.md']);
    const side = app.workspace.getRightLeaf(false)!;
    app.workspace.setActiveLeaf(side); // a view with no file: the active file stays the last one
    expect(app.workspace.getActiveFile()?.path).toBe('a.md');
    expect(opened).toEqual(['a.md', 'b.md', 'a.md']);
  });

  it('normalizePath matches the app', () => {
    expect(normalizePath('//a\\b//c/')).toBe('a/b/c');
    expect(normalizePath('')).toBe('/');
  });
});
