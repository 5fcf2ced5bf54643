import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CORE = fileURLToPath(new URL('../packages/core/', import.meta.url));

/** Runs a snippet in a fresh Node process (the built package, as a user gets it) and returns its JSON output. */
function inFreshProcess(code: string): unknown {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: CORE, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as unknown;
}

/** Every name an entry exports (values and types), read from its source: each entry names its exports one by one. */
function exportedNames(entry: string): string[] {
  const file = ts.createSourceFile(entry, readFileSync(`${CORE}src/${entry}`, 'utf8'), ts.ScriptTarget.Latest);
  return file.statements.flatMap((s) =>
    ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)
      ? s.exportClause.elements.map((e) => e.name.text)
      : [],
  );
}

/**
 * The main entry's size, pinned (issue 21 §2): the workspace, the storage seam, the formats a person reads
 * and the error family bases. A name added here must earn its place (a front end, test or bench uses it and
 * no subpath fits); change the figure in the same commit and say why.
 */
const ROOT_EXPORTS = 45;

describe('the public API of @agentm/core (issue 12)', () => {
  it(`the main entry exports ${ROOT_EXPORTS} names, each once; building blocks live behind subpaths`, () => {
    const names = exportedNames('index.ts');
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe(ROOT_EXPORTS);
    for (const block of ['MemoryIndex', 'recall', 'stateLocation', 'OpenAICompatibleChat', 'bindProject'])
      expect(names).not.toContain(block);
  });

  it('the main entry names every export: no `export *`', () => {
    const index = readFileSync(`${CORE}src/index.ts`, 'utf8');
    expect(index).not.toMatch(/export \*/);
  });

  it('the runtime entry holds the workspace but neither the conformance suites nor the concrete backends', () => {
    const keys = inFreshProcess(
      `const m = await import('@agentm/core'); console.log(JSON.stringify(Object.keys(m)))`,
    ) as string[];
    expect(keys).toEqual(
      expect.arrayContaining(['Workspace', 'Locator', 'StorageBackend', 'parseNote', 'AgentMError']),
    );
    for (const testOnly of ['runConformance', 'UNIVERSAL_CHECKS', 'MemoryBackend', 'runRoutingConformance'])
      expect(keys).not.toContain(testOnly);
    for (const concrete of ['VaultBackend', 'DeviceLocalBackend', 'FsBackend']) expect(keys).not.toContain(concrete);
  });

  it('@agentm/core/testing, /backends and /write-protocol hold the optional parts (/protocol: the old name of /write-protocol)', () => {
    const keys = inFreshProcess(
      `const subs = ['testing', 'backends', 'write-protocol', 'protocol'];
       const ms = await Promise.all(subs.map((s) => import('@agentm/core/' + s)));
       console.log(JSON.stringify(Object.fromEntries(subs.map((s, i) => [s, Object.keys(ms[i])]))))`,
    ) as Record<string, string[]>;
    expect(keys['testing']).toEqual(expect.arrayContaining(['runConformance', 'UNIVERSAL_CHECKS', 'MemoryBackend']));
    expect(keys['backends']).toEqual(expect.arrayContaining(['VaultBackend', 'DeviceLocalBackend', 'builtinBackends']));
    expect(keys['write-protocol']).toEqual(expect.arrayContaining(['withLockDir', 'casWriteFile', 'atomicWrite']));
    expect(keys['protocol']).toEqual(keys['write-protocol']);
  });

  it('@agentm/core/config, /memory, /harness and /providers hold the building blocks, as built', () => {
    const keys = inFreshProcess(
      `const subs = ['config', 'memory', 'harness', 'providers'];
       const ms = await Promise.all(subs.map((s) => import('@agentm/core/' + s)));
       console.log(JSON.stringify(Object.fromEntries(subs.map((s, i) => [s, Object.keys(ms[i])]))))`,
    ) as Record<string, string[]>;
    expect(keys['config']).toEqual(expect.arrayContaining(['setConfigValues', 'resolveVault', 'bindProject']));
    expect(keys['memory']).toEqual(expect.arrayContaining(['MemoryIndex', 'recall', 'DEFAULT_LAYOUT']));
    expect(keys['harness']).toEqual(expect.arrayContaining(['effectiveStatus', 'stateLocation', 'PreflightError']));
    expect(keys['providers']).toEqual(expect.arrayContaining(['OpenAICompatibleChat', 'OpenAIEmbeddings']));
  });

  it('is free of side effects: declared so, and importing it registers no backend anywhere', () => {
    const pkg = JSON.parse(readFileSync(`${CORE}package.json`, 'utf8')) as { sideEffects?: unknown };
    expect(pkg.sideEffects).toBe(false);
    const seen = inFreshProcess(
      `const m = await import('@agentm/core'); const b = await import('@agentm/core/backends');
       console.log(JSON.stringify({ fresh: new m.BackendRegistry().protocols(), builtins: b.builtinBackends().protocols(),
         global: Object.keys(m).filter((k) => /registry$/i.test(k) && k !== 'BackendRegistry') }))`,
    );
    expect(seen).toEqual({ fresh: [], builtins: ['device-local', 'postgres', 'vault'], global: [] });
  });
});
