import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { spawnFixture } from './helpers/processes.js';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';

describe('agentm repos (black box)', { timeout: 60_000 }, () => {
  it("register (upsert), list and unregister, in agentm's file format", async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    expect(
      await runAgentm(['repos', 'register', 'agentm', '--root', '/srv//agentm/', '--wiki', '/srv/agentm/wiki'], {
        home: w.home,
      }),
    ).toMatchObject({ code: 0, stdout: 'agentm\n' });
    expect(
      await runAgentm(['repos', 'register', 'café', '--root', 'rel/dir'], { home: w.home, cwd: w.repo }),
    ).toMatchObject({ code: 0 });
    await runAgentm(['repos', 'register', 'agentm', '--root', '/srv/agentm2'], { home: w.home });
    const file = join(w.memoryRoot, '_meta', 'repos.json');
    expect(await readFile(file, 'utf8')).toBe(
      `{\n  "version": 1,\n  "repos": [\n    {\n      "slug": "agentm",\n      "root_path": "/srv/agentm2",\n      "wiki_path": "/srv/agentm/wiki"\n    },\n` +
        `    {\n      "slug": "caf\\u00e9",\n      "root_path": "${join(w.repo, 'rel', 'dir')}"\n    }\n  ]\n}\n`,
    );
    const list = await runAgentm(['repos', 'list'], { home: w.home });
    expect(JSON.parse(list.stdout)).toEqual({
      repos: [
        { slug: 'agentm', root_path: '/srv/agentm2', wiki_path: '/srv/agentm/wiki' },
        { slug: 'café', root_path: join(w.repo, 'rel', 'dir') },
      ],
    });
    const mtime = (await stat(file)).mtimeMs;
    expect(await runAgentm(['repos', 'unregister', 'ghost'], { home: w.home })).toMatchObject({
      code: 0,
      stdout: 'noop\n',
    });
    expect((await stat(file)).mtimeMs).toBe(mtime);
    expect(await runAgentm(['repos', 'unregister', 'agentm'], { home: w.home })).toMatchObject({
      code: 0,
      stdout: 'removed\n',
    });
    expect((await runAgentm(['repos', 'register', 'x'], { home: w.home })).code).toBe(2);
  });

  it('a registry update racing other writers (real processes) loses no registration', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const env = { HOME: w.home, XDG_CACHE_HOME: `${w.home}/.cache`, AGENTM_INSTALL_PREFIX: `${w.home}/.claude` };
    const library = [
      spawnFixture('registry-writer.mjs', ['lib-a', '12'], env),
      spawnFixture('registry-writer.mjs', ['lib-b', '12'], env),
    ];
    const cli = Array.from({ length: 6 }, (_, i) =>
      runAgentm(['repos', 'register', `cli-${i}`, '--root', `/srv/cli/${i}`], { home: w.home }),
    );
    const [cliResults, libResults] = await Promise.all([Promise.all(cli), Promise.all(library.map((p) => p.exited))]);
    expect(cliResults.map((r) => r.code)).toEqual(Array(6).fill(0));
    expect(
      libResults.map((r) => [r.code, r.stdout.trim()]),
      libResults.map((r) => r.stderr).join('\n'),
    ).toEqual([
      [0, 'done 12'],
      [0, 'done 12'],
    ]);
    const slugs = (
      JSON.parse(await readFile(join(w.memoryRoot, '_meta', 'repos.json'), 'utf8')) as {
        repos: Array<{ slug: string }>;
      }
    ).repos.map((r) => r.slug);
    const expected = [
      ...Array.from({ length: 6 }, (_, i) => `cli-${i}`),
      ...['lib-a', 'lib-b'].flatMap((p) => Array.from({ length: 12 }, (_, i) => `${p}-${i}`)),
    ];
    expect([...slugs].sort()).toEqual([...expected].sort());
  });
});
