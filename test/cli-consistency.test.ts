import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';
import { runAgentm } from './helpers/cli.js';
import { runAgentmInPty } from './helpers/pty.js';
import { tempDir } from './helpers/temp.js';

const SGR = /\x1b\[\d+m/;

describe('one way to ask, one way to answer (issue 15)', { timeout: 60_000 }, () => {
  it('bare agentm prints the help on stdout with exit 0; every --help ends with examples', async () => {
    const home = await tempDir();
    const bare = await runAgentm([], { home });
    expect([bare.code, bare.stderr]).toEqual([0, '']);
    expect(bare.stdout).toMatch(/^Usage: agentm \[options\] \[command\]/);
    expect(bare.stdout).toContain('Examples:\n  $ agentm init');
    for (const command of ['run', 'recall', 'init', 'retry', 'doctor', 'completion']) {
      const help = await runAgentm([command, '--help'], { home });
      expect(help.code).toBe(0);
      expect(help.stdout, command).toMatch(new RegExp(`\\nExamples:\\n {2}\\$ agentm ${command}`));
    }
  });

  it('--json on the commands that print data: save, evolve, plans, repos, doctor', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const run = (args: string[], stdin?: string) =>
      runAgentm(args, { home: w.home, cwd: w.repo, ...(stdin !== undefined ? { stdin } : {}) });
    const saved = await run(['save', 'fix', 'stale-lock', '--body-file', '-', '--json'], 'Wait and retry.\n');
    expect(saved.code, saved.stderr).toBe(0);
    expect(JSON.parse(saved.stdout)).toEqual({
      path: join(w.memoryRoot, 'desk', 'projects', 'proj', 'fix', 'stale-lock.md'),
      key: 'desk/projects/proj/fix/stale-lock.md',
      kind: 'fix',
      slug: 'stale-lock',
      scope: 'project',
      project: 'proj',
    });
    const evolved = await run(
      ['evolve', 'desk/projects/proj/fix/stale-lock.md', '--reason', 'moved', '--body-file', '-', '--json'],
      'Wait longer.\n',
    );
    expect(evolved.code, evolved.stderr).toBe(0);
    expect(JSON.parse(evolved.stdout)).toMatchObject({
      key: 'desk/projects/proj/fix/stale-lock.md',
      archivedKey: expect.stringMatching(/^memory\/_archive\/desk\/projects\/proj\/fix\/stale-lock\.md\.\d{8}\.md$/),
    });

    await writeFile(join(w.harness, 'PLAN-build.md'), '- [ ] x [id:: x] [cmd:: true]\n');
    await writeFile(join(w.repo, '.harness', 'active-plan'), 'build\n');
    const plans = JSON.parse((await run(['plans', '--json'])).stdout) as unknown;
    expect(plans).toEqual({
      dir: w.harness,
      plans: [
        { name: 'build', title: 'build', file: 'PLAN-build.md', path: join(w.harness, 'PLAN-build.md'), active: true },
      ],
      active: 'build',
    });

    expect(JSON.parse((await run(['repos', 'register', 'app', '--root', w.repo, '--json'])).stdout)).toEqual({
      slug: 'app',
      registered: true,
    });
    expect(JSON.parse((await run(['repos', 'unregister', 'app', '--json'])).stdout)).toEqual({
      slug: 'app',
      removed: true,
    });
    const doctor = JSON.parse((await run(['doctor', '--json'])).stdout) as Array<{ id: string; status: string }>;
    expect(doctor.map((r) => r.id)).toEqual(expect.arrayContaining(['storage', 'project', 'index']));
  });

  it('recall: --limit is the result count, --k its old spelling; both at once must agree', async () => {
    const home = await tempDir();
    const root = join(home, 'mem');
    await mkdir(join(root, 'memory', 'fix'), { recursive: true });
    for (const n of [1, 2, 3])
      await writeFile(join(root, 'memory', 'fix', `n${n}.md`), `---\ntype: fix\n---\n\nlock note ${n}\n`);
    const env = { MEMORY_VAULT_PATH: root };
    const count = async (args: string[]) => {
      const r = await runAgentm(['recall', 'lock', '--json', ...args], { home, env });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { items: unknown[] }).items.length;
    };
    expect(await count([])).toBe(3);
    expect(await count(['--limit', '2'])).toBe(2);
    expect(await count(['-n', '1'])).toBe(1);
    expect(await count(['--k', '2'])).toBe(2);
    const both = await runAgentm(['recall', 'lock', '--limit', '2', '--k', '3'], { home, env });
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('--limit 2 and --k 3 disagree')]);
    const bad = await runAgentm(['recall', 'lock', '--limit', '0'], { home, env });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--limit takes a positive whole number')]);
  });

  it('colour on a terminal only, honouring NO_COLOR and FORCE_COLOR; the words are the same either way', async () => {
    const home = await tempDir();
    const tty = await runAgentmInPty(['doctor'], { home });
    expect(tty.stdout).toMatch(/storage \x1b\[32m\[OK\]\x1b\[39m/);
    const noColor = await runAgentmInPty(['doctor'], { home, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).toContain('storage [OK]');
    expect(noColor.stdout).not.toMatch(SGR);
    const piped = await runAgentm(['doctor'], { home });
    expect(piped.stdout).toContain('storage [OK]');
    expect(piped.stdout).not.toMatch(SGR);
    const forced = await runAgentm(['doctor'], { home, env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(/storage \x1b\[32m\[OK\]\x1b\[39m/);
    expect((await runAgentm(['doctor'], { home, env: { FORCE_COLOR: '0' } })).stdout).not.toMatch(SGR);
  });
});

describe('config is validated (issue 15)', { timeout: 60_000 }, () => {
  it('config set refuses an unknown key (listing the known ones) and an ill-typed value; --force writes a foreign key', async () => {
    const w = await agentmWorld();
    const set = (...args: string[]) => runAgentm(['config', 'set', ...args], { home: w.home });
    const typo = await set('providers.chat.modle', 'llama3');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('providers.chat.modle is not a key AgentM knows');
    expect(typo.stderr).toContain('  providers.chat.model ');
    expect(typo.stderr).toContain('  harness.env_allow ');
    expect(typo.stderr).toContain('--force');
    const cases: Array<[string[], RegExp]> = [
      [['providers.chat.timeout_ms', 'soon'], /providers\.chat\.timeout_ms takes a positive number/],
      [['providers.chat.base_url', 'localhost:11434'], /providers\.chat\.base_url takes an http\(s\) URL/],
      [['harness.env_allow', 'NPM_*'], /harness\.env_allow takes a JSON list of strings \(give it with --json\)/],
      [
        ['harness.env_allow', '["NOT OK"]', '--json'],
        /harness\.env_allow must be a list of environment variable names/,
      ],
      [['spaces', 'desk'], /plugins\.obsidian-vault\.spaces takes a JSON object \(give it with --json\)/],
    ];
    for (const [args, message] of cases) {
      const r = await set(...args);
      expect([r.code, r.stderr], args.join(' ')).toEqual([2, expect.stringMatching(message)]);
    }
    await expect(readFile(w.configFile, 'utf8')).rejects.toThrow(/ENOENT/); // nothing was written
    expect((await set('providers.chat.timeout_ms', '5000')).code).toBe(0);
    expect((await set('plugins.postgres.url', 'postgres://db/agentm', '--force')).code).toBe(0);
    expect(JSON.parse(await readFile(w.configFile, 'utf8'))).toMatchObject({
      'providers.chat.timeout_ms': 5000,
      'plugins.postgres.url': 'postgres://db/agentm',
    });
  });

  it('config list shows every key with its value and source (file, env, default), never a secret', async () => {
    const w = await agentmWorld();
    await w.writeConfig({ ...vaultConfig(w), 'providers.chat.api_key': 'sk-secret-0123456789abcdefghij', extra: 1 });
    const list = await runAgentm(['config', 'list', '--json'], {
      home: w.home,
      env: { AGENTM_LLM_MODEL: 'from-env' },
    });
    expect(list.code, list.stderr).toBe(0);
    const rows = (JSON.parse(list.stdout) as { keys: Array<{ key: string; value: unknown; source: string }> }).keys;
    const row = (key: string) => rows.find((r) => r.key === key);
    expect(row('storage.backend')).toEqual({ key: 'storage.backend', value: 'vault', source: 'file' });
    expect(row('providers.chat.model')).toEqual({
      key: 'providers.chat.model',
      value: 'from-env',
      source: 'env AGENTM_LLM_MODEL',
    });
    expect(row('providers.chat.api_key')).toEqual({ key: 'providers.chat.api_key', value: '(set)', source: 'file' });
    expect(row('state_mode')).toEqual({ key: 'state_mode', value: 'backend', source: 'default' });
    expect(row('extra')).toEqual({ key: 'extra', value: 1, source: 'file (not a key AgentM reads)' });
    expect(list.stdout).not.toContain('sk-secret');
    const text = await runAgentm(['config', 'list'], { home: w.home });
    expect(text.stdout).toMatch(/^state_mode +backend +default$/m);
    expect(text.stdout).not.toContain('sk-secret');
  });

  it('config get of an absent key says so on stderr (exit 1)', async () => {
    const w = await agentmWorld();
    const absent = await runAgentm(['config', 'get', 'state_mode'], { home: w.home });
    expect([absent.code, absent.stdout, absent.stderr]).toEqual([
      1,
      '',
      `agentm config: state_mode is not set in ${w.configFile}\n`,
    ]);
    const unknown = await runAgentm(['config', 'get', 'nope'], { home: w.home });
    expect(unknown.stderr).toContain('and it is not a key AgentM reads: agentm config list shows them');
  });
});
