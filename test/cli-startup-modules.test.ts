import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';
import { testDatabase, type TestDatabase } from './helpers/postgres.js';

// Start-up time of a CLI process is mostly the modules it loads (issue 13.4): `--help`, a recall and a
// hook must each load only what they use. Asserted on what the real process loads, never on a timing.

const CORE = realpathSync(fileURLToPath(new URL('../node_modules/@agentm/core/', import.meta.url)));
const AGENTM_JS = join(CORE, 'bin', 'agentm.js');
const LOG = pathToFileURL(fileURLToPath(new URL('./fixtures/module-log.mjs', import.meta.url))).href;

/** The bundle's metafile: which source modules each output file holds. */
function bundleInputs(): Map<string, string[]> {
  const metaFile = join(CORE, 'dist', 'cli-bundle', 'meta.json');
  const outputs = new Map<string, string[]>();
  if (!existsSync(metaFile)) return outputs;
  const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as { outputs: Record<string, { inputs: object }> };
  for (const [file, output] of Object.entries(meta.outputs))
    outputs.set(
      join(CORE, file),
      Object.keys(output.inputs).map((input) => join(CORE, input)),
    );
  return outputs;
}

/**
 * The source modules an `agentm` process loads, as paths relative to the core package (`dist/cli/x.js`,
 * `../../node_modules/.pnpm/yaml@…/node_modules/yaml/…`): a loaded bundle file counts as every module
 * bundled into it.
 */
async function modulesLoaded(args: string[], options: { home: string; env?: NodeJS.ProcessEnv; stdin?: string }) {
  const log = join(options.home, 'modules.log');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', LOG, AGENTM_JS, ...args], {
      cwd: options.home,
      env: {
        PATH: process.env['PATH'],
        HOME: options.home,
        XDG_CACHE_HOME: join(options.home, '.cache'),
        AGENTM_INSTALL_PREFIX: join(options.home, '.claude'),
        AGENTM_MODULE_LOG: log,
        ...options.env,
      },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(options.stdin ?? '');
  });
  const inputs = bundleInputs();
  const lines = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  const loaded = lines
    .filter((line) => line.startsWith('file:'))
    .flatMap((url) => inputs.get(fileURLToPath(url)) ?? [fileURLToPath(url)])
    .map((path) => relative(CORE, path).split('\\').join('/'));
  /** Node's public built-in modules the process loaded (`node:net`), whoever required them. */
  const builtins = new Set(lines.filter((line) => line.startsWith('node:')));
  return { code, loaded, builtins };
}

/** What a module family's paths look like, bundled or not. */
const FAMILIES = {
  yaml: /node_modules\/yaml\//,
  'the MCP SDK': /node_modules\/@modelcontextprotocol\/sdk\//,
  zod: /node_modules\/zod\//,
  'the prompts library': /node_modules\/@clack\//,
  'the command table': /node_modules\/commander\/|^dist\/cli\/program\.js$/,
  'the harness': /^dist\/harness\//,
  'the providers': /^dist\/providers\//,
  'the workspace': /^dist\/workspace\//,
  'the storage backends': /^dist\/backends\//,
  'the postgres driver': /node_modules\/(\.pnpm\/)?(pg|pg-[a-z-]+|pgpass)(@[^/]+\/node_modules\/[a-z-]+)?\//,
} as const;
type Family = keyof typeof FAMILIES;

/** What neither a plain recall nor a prompt hook loads: their answer needs none of it. */
const NOT_ON_THE_ANSWER_PATH = [
  'the command table',
  'the MCP SDK',
  'zod',
  'the prompts library',
  'the harness',
  'the postgres driver',
] as const;

const families = (loaded: readonly string[]) =>
  new Set((Object.keys(FAMILIES) as Family[]).filter((f) => loaded.some((path) => FAMILIES[f].test(path))));

async function vault() {
  const home = await tempDir();
  const root = join(home, 'Vault', 'Agent');
  await mkdir(join(root, 'memory', 'fix'), { recursive: true });
  await writeFile(
    join(root, 'memory', 'fix', 'flaky-build.md'),
    '---\ntype: fix\nstatus: active\ncreated: 2026-01-05\nupdated: 2026-01-05\ntags: [build]\n---\n\nThe build is flaky when the cache is cold.\n',
  );
  return { home, env: { MEMORY_VAULT_PATH: root } };
}

/**
 * Dates the vault's files and folders an hour back, as a vault a user has had for a while: a folder changed
 * within the racy window of its listing (`RACY_WINDOW_MS`, 2 s) is listed again by the first answer more
 * than 2 s after the build, which then writes the folder's settled mark — a write an answer on an index
 * built from an older vault never makes.
 */
async function settle(v: { env: { MEMORY_VAULT_PATH: string } }): Promise<void> {
  const hourAgo = new Date(Date.now() - 3_600_000);
  const root = v.env.MEMORY_VAULT_PATH;
  const entries = await readdir(root, { recursive: true });
  for (const entry of [...entries.map((e) => join(root, e)), root]) await utimes(entry, hourAgo, hourAgo);
}

/**
 * A vault with its index built an hour after its files, the project bound (no `git remote` asked) and no
 * walk due for an hour: an answer over it starts no other process and has nothing to write.
 */
async function builtIndex() {
  const v = await vault();
  await mkdir(join(v.home, '.harness'), { recursive: true });
  await writeFile(join(v.home, '.harness', 'project.json'), JSON.stringify({ vault_project: 'demo' }));
  expect((await runAgentm(['config', 'set', 'memory.index.revalidate_after', '1h'], v)).code).toBe(0);
  await settle(v);
  expect((await runAgentm(['reindex'], v)).code).toBe(0);
  return v;
}

describe('what a command loads at start-up', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await testDatabase();
  });

  it('agentm --help loads the command table and nothing a command runs: no yaml, harness, MCP SDK, providers or store', async () => {
    const { code, loaded, builtins } = await modulesLoaded(['--help'], { home: await tempDir() });
    expect(code).toBe(0);
    // commander requires child_process for executable subcommands: the bundle defers it to first use.
    expect(builtins.has('node:child_process'), '--help loaded child_process').toBe(false);
    const seen = families(loaded);
    expect(seen.has('the command table')).toBe(true);
    for (const family of [
      'yaml',
      'the MCP SDK',
      'zod',
      'the prompts library',
      'the harness',
      'the providers',
      'the workspace',
      'the storage backends',
    ] as const)
      expect(seen.has(family), `--help loads ${family}`).toBe(false);
  });

  it('a recall loads the workspace but not the command table, the harness, the MCP SDK or the prompts', async () => {
    const v = await vault();
    const { code, loaded } = await modulesLoaded(['recall', 'flaky build', '--json'], v);
    expect(code).toBe(0);
    const seen = families(loaded);
    expect(seen.has('the workspace')).toBe(true);
    for (const family of NOT_ON_THE_ANSWER_PATH) expect(seen.has(family), `a recall loads ${family}`).toBe(false);
  });

  it('a recall that asks for help, or mistypes an option, is read by the command table', async () => {
    const v = await vault();
    const help = await modulesLoaded(['recall', '--help'], v);
    expect(help.code).toBe(0);
    expect(families(help.loaded).has('the command table')).toBe(true);
    const typo = await modulesLoaded(['recall', 'flaky build', '--jsn'], v);
    expect(typo.code).toBe(2);
    expect(families(typo.loaded).has('the command table')).toBe(true);
  });

  it('a recall over an index built before, with nothing changed since, reads no note and loads no YAML parser', async () => {
    const v = await builtIndex();
    const { code, loaded, builtins } = await modulesLoaded(['recall', 'flaky build'], v);
    expect(code).toBe(0);
    expect(families(loaded).has('yaml'), 'the answer loaded yaml').toBe(false);
    expect(builtins.has('node:child_process'), 'the answer loaded child_process').toBe(false);
    // ~7 ms of seventeen internal modules; the few names the answer hashes need none of them (a write
    // would: a temp file's random name — hence `settle`).
    expect(builtins.has('node:crypto'), 'the answer loaded crypto').toBe(false);
  });

  it("a recall over an index whose journal holds a note saved since the build checks the journal's lines without node:crypto", async () => {
    const v = await builtIndex();
    // A long note saved through AgentM: the next answer reads it and appends it to the index's journal.
    const body = `# Cold caches\n\n${'The build is flaky when the cache is cold; warm it first. '.repeat(120)}\n`;
    const saved = await runAgentm(['save', 'fix', 'cold-cache', '--global', '--body-file', '-'], { ...v, stdin: body });
    expect(saved.code, saved.stderr).toBe(0);
    expect((await runAgentm(['recall', 'cold cache'], v)).code).toBe(0);
    const journals = (await readdir(join(v.home, '.cache'), { recursive: true })).filter((f) =>
      f.endsWith('journal.log'),
    );
    expect(journals).toHaveLength(1);
    const lines = (await readFile(join(v.home, '.cache', journals[0]!), 'utf8')).split('\n');
    expect(Math.max(...lines.map((line) => line.length)), 'no journal line as long as the note').toBeGreaterThan(4096);

    const { code, builtins } = await modulesLoaded(['recall', 'flaky build'], v);
    expect(code).toBe(0);
    expect(builtins.has('node:crypto'), 'the answer loaded crypto to check the journal').toBe(false);
  });

  it('a prompt hook skips the command table and loads neither the harness, the MCP SDK nor the prompts', async () => {
    const v = await vault();
    const stdin = JSON.stringify({
      hook_event_name: 'UserPromptSubmit',
      session_id: 's1',
      cwd: v.home,
      prompt: 'why is the build flaky',
    });
    const { code, loaded } = await modulesLoaded(['hook', 'user-prompt-submit'], { ...v, stdin });
    expect(code).toBe(0);
    const seen = families(loaded);
    expect(seen.has('the workspace')).toBe(true);
    for (const family of NOT_ON_THE_ANSWER_PATH) expect(seen.has(family), `a hook loads ${family}`).toBe(false);
  });

  it('a prompt hook over a built index makes no socket for its input and answer (fds 0 and 1 directly)', async () => {
    const v = await builtIndex();
    const stdin = JSON.stringify({
      hook_event_name: 'UserPromptSubmit',
      session_id: 's1',
      cwd: v.home,
      prompt: 'why is the build flaky',
    });
    const { code, builtins } = await modulesLoaded(['hook', 'user-prompt-submit'], { ...v, stdin });
    expect(code).toBe(0);
    expect(builtins.has('node:fs')).toBe(true);
    expect(builtins.has('node:net'), 'the hook loaded net (a socket for a pipe)').toBe(false);
    expect(builtins.has('node:crypto'), 'the hook loaded crypto').toBe(false);
  });

  it('the postgres driver is loaded by a command on a postgres store, and only there', async () => {
    const home = await tempDir();
    await mkdir(join(home, '.claude'), { recursive: true });
    await writeFile(join(home, '.claude', '.agentm-config.json'), JSON.stringify({ 'storage.backend': 'postgres' }));
    const { code, loaded } = await modulesLoaded(['recall', 'flaky build'], { home, env: db.env });
    expect(code, loaded.join('\n')).not.toBe(2);
    expect(families(loaded).has('the postgres driver')).toBe(true);
  });

  it('a cold agentm reindex from the bundle still reads the notes with the built read workers', async () => {
    const v = await vault();
    const { code, stdout } = await runAgentm(['reindex', '--json'], v);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { rebuilt: string; documents: number; readWorkers?: number };
    expect(report).toMatchObject({ rebuilt: 'missing', documents: 1 });
    expect(report.readWorkers).toBeGreaterThanOrEqual(1);
  });
});
