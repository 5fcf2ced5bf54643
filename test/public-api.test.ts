import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CORE = fileURLToPath(new URL('../packages/core/', import.meta.url));

/** Runs a snippet in a fresh Node process (the built package, as a user gets it) and returns its JSON output. */
function inFreshProcess(code: string): unknown {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: CORE, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as unknown;
}

describe('the public API of @agentm/core (issue 12)', () => {
  it('the main entry names every export: no `export *`', () => {
    const index = readFileSync(`${CORE}src/index.ts`, 'utf8');
    expect(index).not.toMatch(/export \*/);
  });

  it('the runtime entry holds the workspace but neither the conformance suites nor the concrete backends', () => {
    const keys = inFreshProcess(
      `const m = await import('@agentm/core'); console.log(JSON.stringify(Object.keys(m)))`,
    ) as string[];
    expect(keys).toEqual(expect.arrayContaining(['Workspace', 'openWorkspace', 'Locator', 'StorageBackend', 'recall']));
    for (const testOnly of ['runConformance', 'UNIVERSAL_CHECKS', 'MemoryBackend', 'runRoutingConformance'])
      expect(keys).not.toContain(testOnly);
    for (const concrete of ['VaultBackend', 'DeviceLocalBackend', 'FsBackend']) expect(keys).not.toContain(concrete);
  });

  it('@agentm/core/testing, /backends and /protocol hold the optional parts', () => {
    const keys = inFreshProcess(
      `const [t, b, p] = await Promise.all(['testing', 'backends', 'protocol'].map((s) => import('@agentm/core/' + s)));
       console.log(JSON.stringify({ testing: Object.keys(t), backends: Object.keys(b), protocol: Object.keys(p) }))`,
    ) as Record<string, string[]>;
    expect(keys['testing']).toEqual(expect.arrayContaining(['runConformance', 'UNIVERSAL_CHECKS', 'MemoryBackend']));
    expect(keys['backends']).toEqual(expect.arrayContaining(['VaultBackend', 'DeviceLocalBackend', 'builtinBackends']));
    expect(keys['protocol']).toEqual(expect.arrayContaining(['withLockDir', 'casWriteFile', 'atomicWrite']));
  });

  it('is free of side effects: declared so, and importing it registers no backend anywhere', () => {
    const pkg = JSON.parse(readFileSync(`${CORE}package.json`, 'utf8')) as { sideEffects?: unknown };
    expect(pkg.sideEffects).toBe(false);
    const seen = inFreshProcess(
      `const m = await import('@agentm/core');
       console.log(JSON.stringify({ fresh: new m.BackendRegistry().protocols(), builtins: m.builtinBackends().protocols(),
         global: Object.keys(m).filter((k) => /registry$/i.test(k) && k !== 'BackendRegistry') }))`,
    );
    expect(seen).toEqual({ fresh: [], builtins: ['device-local', 'postgres', 'vault'], global: [] });
  });
});
