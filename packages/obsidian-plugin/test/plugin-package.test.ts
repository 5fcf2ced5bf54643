import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as obsidian from 'obsidian';
import { describe, expect, it, vi } from 'vitest';
import type { AgentMServices } from '../src/services.js';
import { finishStartup, loadPlugin, unloadPlugin } from './fake-obsidian/testing.js';
import { MANIFEST } from './helpers/plugin.js';
import { ALL_COMMANDS } from './helpers/services.js';
import { testVault } from './helpers/vault.js';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(PACKAGE, path), 'utf8');

function sources(dir = join(PACKAGE, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('the plugin package', () => {
  it('has a manifest that follows the community rules', () => {
    expect(MANIFEST.id).toBe('agentm-vault');
    expect(MANIFEST.name).not.toMatch(/obsidian|plugin/i);
    expect(MANIFEST.isDesktopOnly).toBe(true);
    expect(MANIFEST.minAppVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(JSON.parse(read('versions.json'))).toMatchObject({ [MANIFEST.version]: MANIFEST.minAppVersion });
    expect(JSON.parse(read('package.json')).version).toBe(MANIFEST.version);
  });

  it('builds dist/ with exactly main.js, manifest.json and styles.css', () => {
    expect(existsSync(join(PACKAGE, 'dist')), 'run `pnpm --filter agentm-vault build` first').toBe(true);
    expect(readdirSync(join(PACKAGE, 'dist')).sort()).toEqual(['main.js', 'manifest.json', 'styles.css']);
    expect(read('dist/manifest.json')).toBe(read('manifest.json'));
    expect(read('dist/styles.css')).toBe(read('styles.css'));
  });

  it('loads dist/main.js the way Obsidian does (CommonJS, `obsidian` supplied by the app) and runs', async () => {
    const code = read('dist/main.js');
    const nodeRequire = createRequire(join(PACKAGE, 'dist', 'main.js'));
    const external = new Set<string>();
    const appRequire = (id: string) => {
      external.add(id);
      return id === 'obsidian' ? obsidian : nodeRequire(id);
    };
    const module = { exports: {} as { default?: unknown } };
    new Function('require', 'module', 'exports', code)(appRequire, module, module.exports);
    // Besides Node's builtins (Obsidian desktop runs on Electron's Node), the app supplies only `obsidian`.
    expect([...external].filter((id) => !isBuiltin(id))).toEqual(['obsidian']);

    const PluginClass = module.exports.default as new (
      app: never,
      manifest: obsidian.PluginManifest,
    ) => obsidian.Plugin;
    expect(PluginClass.prototype).toBeInstanceOf(obsidian.Plugin);
    const v = await testVault({ 'a.md': 'x', 'a [Conflict].md': 'y' }, { start: false });
    const plugin = await loadPlugin(
      v.fake,
      PluginClass,
      MANIFEST,
      (p) => ((p as unknown as { host: unknown }).host = v.host),
    );
    await finishStartup(v.fake);
    await (plugin as unknown as { whenStarted(): Promise<void> }).whenStarted();
    expect([...v.fake.commands.commands.keys()].sort()).toEqual(ALL_COMMANDS);
    unloadPlugin(plugin);
  });

  it('starts no child process and reaches no network without providers, as its README says (the built main.js at work)', async () => {
    const code = read('dist/main.js');
    const nodeRequire = createRequire(join(PACKAGE, 'dist', 'main.js'));
    const spawned: string[] = [];
    const childProcess = nodeRequire('node:child_process') as Record<string, unknown>;
    const watched = Object.fromEntries(
      Object.entries(childProcess).map(([name, value]) =>
        typeof value === 'function'
          ? [
              name,
              (...args: unknown[]) => (
                spawned.push(`${name} ${String(args[0])}`),
                (value as (...a: unknown[]) => unknown)(...args)
              ),
            ]
          : [name, value],
      ),
    );
    const appRequire = (id: string) =>
      id === 'obsidian' ? obsidian : id === 'node:child_process' || id === 'child_process' ? watched : nodeRequire(id);
    const module = { exports: {} as { default?: unknown } };
    new Function('require', 'module', 'exports', code)(appRequire, module, module.exports);
    const fetched = vi.spyOn(globalThis, 'fetch');
    const v = await testVault(
      {
        'desk/projects/app/_harness/PLAN.md': '- [ ] build [id:: build]\n',
        'desk/projects/app/notes/a.md': '# A\n\nbuild notes\n',
      },
      { start: false },
    );
    const plugin = await loadPlugin(
      v.fake,
      module.exports.default as new (app: never, manifest: obsidian.PluginManifest) => obsidian.Plugin,
      MANIFEST,
      (p) => ((p as unknown as { host: unknown }).host = v.host),
    );
    await finishStartup(v.fake);
    const started = plugin as unknown as { whenStarted(): Promise<void>; services: AgentMServices };
    await started.whenStarted();
    await v.app.workspace.getLeaf(false).openFile(v.app.vault.getFileByPath('desk/projects/app/notes/a.md')!);
    for (const id of ['open-plan-view', 'open-related-memories', 'open-conflicts-view'])
      expect(v.fake.commands.executeCommandById(`agentm-vault:${id}`)).toBe(true);
    await started.services.recall('build');
    await started.services.related('build', 'desk/projects/app/notes/a.md');
    await started.services.saveNote({ kind: 'fix', slug: 'disclosed', tags: [], body: 'b' });
    await started.services.doctor();
    expect((await started.services.planBoard()).plans.map((p) => p.name)).toEqual(['PLAN']);
    expect(spawned).toEqual([]);
    expect(fetched).not.toHaveBeenCalled();
    fetched.mockRestore();
    unloadPlugin(plugin);
  });

  it('follows the guidelines in its source: no HTML strings, every listener registered, no default hotkeys', () => {
    for (const file of sources()) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML/);
      expect(text, file).not.toMatch(/\.addEventListener\(/);
      expect(text, file).not.toMatch(/\bhotkeys\s*:/);
      expect(text, `${file}: use this.app, never the global app`).not.toMatch(/\b(window|globalThis)\.app\b/);
      expect(text, file).not.toMatch(/from 'vscode'/);
    }
  });

  it('uses only Obsidian CSS variables for colours in styles.css', () => {
    const css = read('styles.css');
    expect(css).not.toMatch(/#[0-9a-f]{3,8}\b/i);
    expect(css.match(/rgba?\((?!var\()/g)).toBeNull();
  });
});
