import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { spawnAgentmInPty, stripAnsi } from './helpers/pty.js';
import { tempDir } from './helpers/temp.js';

async function fresh() {
  const home = await tempDir();
  const vault = join(home, 'Vault');
  const repo = join(home, 'my-app');
  await mkdir(vault);
  await mkdir(repo);
  const configFile = join(home, '.claude', '.agentm-config.json');
  return { home, vault, repo, configFile, bindingFile: join(repo, '.harness', 'project.json') };
}

describe('agentm init (issue 15)', { timeout: 60_000 }, () => {
  it('with flags: writes the config in one write and binds the repo; doctor then sees the vault and the project', async () => {
    const w = await fresh();
    const init = await runAgentm(
      [
        'init',
        '--vault',
        w.vault,
        '--memory-root',
        'Agent',
        '--project',
        'my-app',
        '--chat-url',
        'http://127.0.0.1:11434/v1',
        '--chat-model',
        'llama3.1',
        '--yes',
      ],
      { home: w.home, cwd: w.repo },
    );
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toBe(`updated ${w.configFile}\ncreated ${w.bindingFile} (project my-app)\n`);
    expect(JSON.parse(await readFile(w.configFile, 'utf8'))).toEqual({
      'plugins.obsidian-vault.vault_path': w.vault,
      'storage.backend': 'vault',
      'plugins.obsidian-vault.memory_root': 'Agent',
      'providers.chat.base_url': 'http://127.0.0.1:11434/v1',
      'providers.chat.model': 'llama3.1',
      schema_version: 2,
    });
    expect(await readFile(w.bindingFile, 'utf8')).toBe('{\n  "vault_project": "my-app"\n}\n');
    const doctor = await runAgentm(['doctor'], { home: w.home, cwd: w.repo });
    expect(doctor.stdout).toContain(`memory root ${join(w.vault, 'Agent')}`);
    expect(doctor.stdout).toContain('project [OK] ');
    expect(doctor.stdout).toContain("is project 'my-app' (from .harness/project.json vault_project)");
    expect(doctor.stdout).not.toContain('setup [HINT]');
    // Again: nothing changes, nothing is rewritten.
    const again = await runAgentm(['init', '--vault', w.vault, '--project', 'my-app', '--json'], {
      home: w.home,
      cwd: w.repo,
    });
    expect(JSON.parse(again.stdout)).toEqual({
      config: { file: w.configFile, changed: false },
      project: { file: w.bindingFile, outcome: 'unchanged', slug: 'my-app' },
    });
  });

  it('merges into a project.json that has other keys, and refuses one that binds another project (nothing written)', async () => {
    const w = await fresh();
    await mkdir(join(w.repo, '.harness'));
    await writeFile(w.bindingFile, '{"github": {"repo": "me/my-app"}, "note": "kept"}');
    const merged = await runAgentm(['init', '--project', 'my-app'], { home: w.home, cwd: w.repo });
    expect(merged.code, merged.stderr).toBe(0);
    expect(JSON.parse(await readFile(w.bindingFile, 'utf8'))).toEqual({
      github: { repo: 'me/my-app' },
      note: 'kept',
      vault_project: 'my-app',
    });

    const bound = await readFile(w.bindingFile, 'utf8');
    const refused = await runAgentm(['init', '--vault', w.vault, '--project', 'other'], { home: w.home, cwd: w.repo });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('already binds this folder to project "my-app"; it is left as it is');
    expect(refused.stderr).toContain('moves where its plans and notes go');
    expect(refused.stderr).toContain('run again with --force');
    expect(await readFile(w.bindingFile, 'utf8')).toBe(bound);
    expect(existsSync(w.configFile)).toBe(false); // all or nothing: the vault was not written either

    const forced = await runAgentm(['init', '--project', 'other', '--force'], { home: w.home, cwd: w.repo });
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(await readFile(w.bindingFile, 'utf8'))).toMatchObject({ note: 'kept', vault_project: 'other' });
  });

  it('never overwrites a project.json it cannot read, and checks every value before writing any', async () => {
    const w = await fresh();
    await mkdir(join(w.repo, '.harness'));
    await writeFile(w.bindingFile, 'not json {');
    const foreign = await runAgentm(['init', '--project', 'my-app'], { home: w.home, cwd: w.repo });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain(
      'is not a JSON object, so it cannot take "vault_project" without losing its content',
    );
    expect(await readFile(w.bindingFile, 'utf8')).toBe('not json {');

    const cases: Array<[string[], RegExp]> = [
      [['--vault', join(w.home, 'nope')], /--vault: .*nope is not an existing folder/],
      [['--vault', w.vault, '--memory-root', '../up'], /--memory-root: takes a folder inside the vault/],
      [['--vault', w.vault, '--chat-url', 'http://x/v1'], /--chat-url and --chat-model: give both, or neither/],
      [['--vault', w.vault, '--chat-url', 'ftp://x', '--chat-model', 'm'], /an http\(s\) URL/],
      [['--vault', w.vault, '--project', 'a/b'], /--project: takes one plain folder name/],
    ];
    for (const [flags, message] of cases) {
      const r = await runAgentm(['init', ...flags, '--yes'], { home: w.home, cwd: w.repo });
      expect([r.code, r.stderr], flags.join(' ')).toEqual([2, expect.stringMatching(message)]);
    }
    expect(existsSync(w.configFile)).toBe(false);
    const none = await runAgentm(['init'], { home: w.home, cwd: w.repo });
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining('init: nothing to set')]);
  });

  it('on a terminal: asks for the vault, memory root, project and endpoints, shows a summary, then writes', async () => {
    const w = await fresh();
    const session = spawnAgentmInPty(['init'], { home: w.home, cwd: w.repo });
    await session.waitFor(/Obsidian vault folder/);
    session.type(`${join(w.home, 'missing')}\r`);
    await session.waitFor(/is not an existing folder/);
    session.type('\x15'); // Ctrl-U: clear the line
    session.type(`${w.vault}\r`);
    await session.waitFor(/agent's folder inside the vault/);
    session.type('\r'); // Agent, the default
    await session.waitFor(/Project name for this repository \(from the folder name\)/);
    session.type('\r'); // my-app, from the folder name
    await session.waitFor(/Configure a chat endpoint/);
    session.type('y');
    await session.waitFor(/chat endpoint base URL/);
    session.type('http://127.0.0.1:11434/v1\r');
    await session.waitFor(/chat model name/);
    session.type('llama3.1\r');
    await session.waitFor(/Configure a embeddings endpoint/);
    session.type('n');
    await session.waitFor(/Write it\?/);
    // The summary (clack's box, wrapped to the terminal): what will be written, and where.
    const summary = stripAnsi(session.output()).replace(/[│\s]+/g, ' ');
    expect(summary).toContain(`vault ${w.vault}, memory root Agent`);
    expect(summary).toContain('chat llama3.1 at http://127.0.0.1:11434/v1');
    expect(summary).toContain('project.json: vault_project my-app');
    session.type('y');
    const done = await session.exited;
    expect(done.code, done.stdout).toBe(0);
    expect(JSON.parse(await readFile(w.configFile, 'utf8'))).toMatchObject({
      'plugins.obsidian-vault.vault_path': w.vault,
      'plugins.obsidian-vault.memory_root': 'Agent',
      'providers.chat.model': 'llama3.1',
    });
    expect(JSON.parse(await readFile(w.bindingFile, 'utf8'))).toEqual({ vault_project: 'my-app' });
  });

  it('on a terminal, Ctrl-C writes nothing', async () => {
    const w = await fresh();
    const session = spawnAgentmInPty(['init'], { home: w.home, cwd: w.repo });
    await session.waitFor(/Obsidian vault folder/);
    session.type('\x03');
    const done = await session.exited;
    expect(done.code).toBe(130);
    expect(done.stdout).toContain('nothing was written');
    expect(existsSync(w.configFile)).toBe(false);
    expect(existsSync(w.bindingFile)).toBe(false);
  });
});
