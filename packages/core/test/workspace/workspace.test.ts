import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from '../../../../test/helpers/agentm-world.js';
import { Locator } from '../../src/seam/locator.js';
import { BackendRegistry } from '../../src/seam/registry.js';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { buildNote } from '../../src/memory/notes/save.js';
import { appendObservations } from '../../src/harness/observations/progress-format.js';
import { makeObservation } from '../../src/harness/observations/observation.js';
import { type ProviderSource } from '../../src/workspace/options.js';
import { openWorkspace } from '../../src/workspace/workspace.js';

/** `spaces` that move memory and projects away from the built-in `memory` and `desk/projects`. */
const SPACES = { memory: 'agent-mem/notes', projects: 'work' };

async function spacedWorld(): Promise<AgentmWorld> {
  const w = await agentmWorld();
  await w.writeConfig({ ...vaultConfig(w), 'plugins.obsidian-vault.spaces': SPACES });
  return w;
}

function hostOf(w: AgentmWorld) {
  return { env: { HOME: w.home, XDG_CACHE_HOME: join(w.home, 'cache') }, home: w.home };
}

/** A note in agentm's format at `key` under the memory root. */
async function writeNote(w: AgentmWorld, group: string, kind: string, slug: string, body: string): Promise<string> {
  const note = buildNote({ kind, slug, body, group }, { now: new Date(2026, 0, 10), memorySpace: SPACES.memory });
  const path = join(w.memoryRoot, ...note.locator.parts);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, note.content);
  return note.locator.key;
}

/** A provider source that counts what it was asked for. */
function countingProviders(): ProviderSource & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    embedder: async () => (asked.push('embedder'), undefined),
    chat: async () => (asked.push('chat'), undefined),
  };
}

describe('the workspace owns the config, the store and its layout', () => {
  it('recalls a note that lives only under the configured memory space, and saves there', async () => {
    const w = await spacedWorld();
    const key = await writeNote(
      w,
      SPACES.memory,
      'fix',
      'lock-retry',
      '# Retry the lock\n\nBack off when the vault lock is held.',
    );
    expect(key).toBe('agent-mem/notes/fix/lock-retry.md');
    const ws = await openWorkspace({ host: hostOf(w), projectRoot: w.repo });
    expect(ws.protocol).toBe('vault');
    expect(ws.localRoot).toBe(w.memoryRoot);
    expect(ws.memorySpace).toBe('agent-mem/notes');
    expect(ws.layout.projectSpaces[0]).toBe('work');
    const result = await ws.recall({ text: 'vault lock held' });
    expect(result.items.map((i) => i.locator)).toEqual([key]);

    const saved = await ws.saveNote({ kind: 'decision', slug: 'pin-node', body: 'Pin Node 20.\n', scope: 'global' });
    expect(saved.locator.key).toBe('agent-mem/notes/convention/pin-node.md');
    expect(existsSync(join(w.memoryRoot, 'agent-mem', 'notes', 'convention', 'pin-node.md'))).toBe(true);
  });

  it("resolves the repository's project in the configured projects space, once", async () => {
    const w = await spacedWorld();
    await mkdir(join(w.memoryRoot, 'work', 'proj'), { recursive: true });
    const ws = await openWorkspace({ host: hostOf(w), projectRoot: w.repo });
    const project = await ws.project();
    expect(project?.slug).toBe('proj');
    expect(project?.projectLocator?.key).toBe('work/proj');
    expect(await ws.project()).toBe(project);
    expect((await ws.projectFolder('other')).key).toBe('work/other'); // a new project goes to the configured space
    expect(await (await openWorkspace({ host: hostOf(w) })).project()).toBeUndefined(); // no repository
  });

  it('opens without asking for providers; a recall asks for the embedder only, a consolidation for both', async () => {
    const w = await spacedWorld();
    const providers = countingProviders();
    const ws = await openWorkspace({ host: hostOf(w), projectRoot: w.repo, providers: () => providers });
    await ws.saveNote({ kind: 'fix', slug: 'x', body: 'x\n' });
    expect(providers.asked).toEqual([]);
    await ws.recall({ text: 'x' });
    await ws.recall({ text: 'y' });
    expect(providers.asked).toEqual(['embedder']);
    await ws.consolidate({ project: 'proj' });
    expect(providers.asked).toEqual(['embedder', 'chat']);
  });

  it('consolidates episodes of a project under the configured projects space into a belief beside its notes', async () => {
    const w = await spacedWorld();
    const harness = join(w.memoryRoot, 'work', 'proj', '_harness');
    await mkdir(harness, { recursive: true });
    const episodes = ['the watcher fires twice on rename', 'the watcher fires twice on rename events'].map((text, i) =>
      makeObservation({
        kind: 'note',
        step: 's',
        attempt: 1,
        actor: 'agent',
        time: new Date(Date.UTC(2026, 2, 1, 10, i)),
        text,
      }),
    );
    await writeFile(join(harness, 'progress.md'), appendObservations('', episodes));
    const ws = await openWorkspace({ host: hostOf(w), projectRoot: w.repo });
    expect(await ws.projectsWithHarness()).toEqual(['proj']);
    const report = await ws.consolidate({ project: 'proj' });
    expect(report.created).toHaveLength(1);
    expect(report.created[0]!.id).toMatch(/^work\/proj\//);
    expect(JSON.parse(await readFile(join(harness, 'consolidation.json'), 'utf8'))).toBeTruthy();
  });

  it('takes the backend a host brings: nothing is selected, a corrupt config does not stop it', async () => {
    const w = await agentmWorld();
    await w.writeConfig('{"storage.backend": ');
    await expect(openWorkspace({ host: hostOf(w) })).rejects.toThrow(/could not be read as JSON/);
    const backend = new MemoryBackend();
    const ws = await openWorkspace({ host: hostOf(w), backend });
    expect(ws.backend).toBe(backend);
    expect(ws.protocol).toBe('host');
    expect(ws.selection).toBeUndefined();
    expect(ws.config).toEqual({});
    await ws.saveNote({ kind: 'fix', slug: 'y', body: 'y\n' });
    expect(await backend.exists(new Locator('memory/fix/y.md'))).toBe(true);
  });

  it('looks protocols up in the registry it is given; by default in a fresh one (no process-wide registry)', async () => {
    const w = await agentmWorld();
    await w.writeConfig({ 'storage.backend': 'memory' });
    await expect(openWorkspace({ host: hostOf(w) })).rejects.toThrow(
      /Registered backends: device-local, postgres, vault/,
    );
    const registry = new BackendRegistry();
    registry.register('memory', MemoryBackend);
    const ws = await openWorkspace({ host: hostOf(w), registry });
    expect(ws.backend).toBeInstanceOf(MemoryBackend);
    await expect(openWorkspace({ host: hostOf(w) })).rejects.toThrow(
      /Registered backends: device-local, postgres, vault/,
    );
  });
});

describe("the workspace's harness", () => {
  it('routes plan files into the project in the vault and runs a command plan to done', async () => {
    const w = await spacedWorld();
    const harness = join(w.memoryRoot, 'work', 'proj', '_harness');
    await mkdir(harness, { recursive: true });
    await writeFile(join(harness, 'PLAN-build.md'), '- [ ] say hi [id:: hi] [cmd:: node -e "process.exit(0)"]\n');
    const ws = await openWorkspace({ host: hostOf(w), projectRoot: w.repo });
    const services = await ws.harness();
    expect((await services.planFiles('build')).files.planLabel).toBe('work/proj/_harness/PLAN-build.md');
    const run = await services.run({ plan: 'build', consent: { yes: true } });
    expect(run.terminal).toBe('done');
    expect(await readFile(join(harness, 'PLAN-build.md'), 'utf8')).toMatch(/^- \[x\] say hi/m);
  });
});
