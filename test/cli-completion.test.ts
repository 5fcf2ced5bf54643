import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENTM_BIN, runAgentm } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';

const hasShell = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;

/**
 * The shells under test are real ones: bash is always here; zsh and fish are installed before the
 * suite by `test/setup.mjs` (run by `npm test`, as root). Where one is missing, its test is skipped and
 * says why.
 */
function missingShell(name: string): boolean {
  if (hasShell(name)) return false;
  console.warn(
    `skipped: the ${name} completion test needs ${name}: run node test/setup.mjs as root, which installs it`,
  );
  return true;
}

/** A repository with two plans, one of them with a failed step; the shells find `agentm` on PATH. */
async function world() {
  const home = await tempDir();
  const repo = join(home, 'repo');
  await mkdir(join(repo, '.harness'), { recursive: true });
  await writeFile(join(repo, '.harness', 'PLAN.md'), '- [ ] One [id:: one]\n');
  await writeFile(
    join(repo, '.harness', 'PLAN-release.md'),
    '- [x] Build [id:: build]\n- [!] Test [id:: test]\n- [ ] Publish [id:: publish] [after:: test]\n',
  );
  const env = {
    PATH: `${dirname(AGENTM_BIN)}:${process.env['PATH']}`,
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    AGENTM_INSTALL_PREFIX: join(home, '.claude'),
  };
  const shell = (program: string, script: string) => {
    const r = spawnSync(program, ['-c', script], { cwd: repo, env, encoding: 'utf8', timeout: 20_000 });
    if (r.status !== 0) throw new Error(`${program} failed: ${r.stderr}`);
    return r.stdout.split('\n').filter((l) => l !== '');
  };
  return { home, repo, shell };
}

describe('shell completion (issue 15)', () => {
  it('bash: commands, options, plan names for --plan (also --plan=), step ids for retry (failed first), files otherwise', async () => {
    const w = await world();
    const complete = (...words: string[]) =>
      w.shell(
        'bash',
        `source <(agentm completion bash)
         COMP_WORDS=(agentm ${words.map((x) => `'${x}'`).join(' ')}); COMP_CWORD=${words.length}
         _agentm_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
      );
    expect(complete('re').sort()).toEqual([
      'read-state',
      'recall',
      'recall-here',
      'reindex',
      'replay',
      'repos',
      'retry',
    ]);
    expect(complete('run', '--pl')).toEqual(['--plan']);
    expect(complete('run', '--plan', '')).toEqual(['PLAN', 'release']);
    expect(complete('trace', '--plan', '=', 'r')).toEqual(['release']);
    expect(complete('retry', '--plan', 'release', '')).toEqual(['test', 'build', 'publish']);
    expect(complete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('config', 'set', 'providers.chat.m')).toEqual(['providers.chat.model']);
    expect(complete('__compl')).toEqual([]); // hidden
    expect(complete('save', 'fix', 'x', '--body-file', '')).toEqual([]); // bash falls back to file names
  });

  it.skipIf(missingShell('zsh'))(
    'zsh: the script loads as a completion function and offers the same words',
    async () => {
      const w = await world();
      const complete = (...words: string[]) =>
        w.shell(
          'zsh',
          `source <(agentm completion zsh)
         compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; print -l -- "$@"; }
         _files() { print '(files)'; }
         words=(agentm ${words.map((x) => `'${x}'`).join(' ')}); CURRENT=${words.length + 1}; _agentm`,
        );
      expect(complete('ret')).toEqual(['retry']);
      expect(complete('retry', '--plan', 'release', 't')).toEqual(['test']);
      expect(complete('save', 'fix', 'x', '--body-file', '')).toEqual(['(files)']);
    },
  );

  it.skipIf(missingShell('fish'))('fish: complete -C lists candidates with what they are', async () => {
    const w = await world();
    const complete = (line: string) => w.shell('fish', `agentm completion fish | source; complete -C '${line}'`);
    expect(complete('agentm ret')).toEqual([
      'retry\tput failed steps back in the queue (attempt + 1, plan reopened); the next agentm run runs them',
    ]);
    // fish sorts the candidates itself.
    expect(complete('agentm retry --plan release ')).toEqual([
      'build\tdone: Build',
      'publish\tpending: Publish',
      'test\tfailed: Test',
    ]);
    expect(complete('agentm run --plan=')).toEqual(['--plan=PLAN', '--plan=release']);
  });

  it('agentm completion refuses an unknown shell', async () => {
    const home = await tempDir();
    const r = await runAgentm(['completion', 'tcsh'], { home });
    expect([r.code, r.stderr]).toEqual([2, 'agentm: completion: unknown shell "tcsh"; use one of bash, zsh, fish\n']);
  });
});
