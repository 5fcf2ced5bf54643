import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';

async function repo(config: unknown) {
  const home = await tempDir();
  const cwd = join(home, 'repo');
  await mkdir(cwd, { recursive: true });
  await mkdir(join(home, '.claude'), { recursive: true });
  await writeFile(join(home, '.claude', '.agentm-config.json'), JSON.stringify(config));
  return { home, cwd };
}

describe('agentm plan with roles from the config file (black box)', { timeout: 60_000 }, () => {
  it('routes the planned step to a configured role', async () => {
    const r = await repo({
      'harness.roles': {
        releaser: {
          description: 'Publishes releases: tags, changelogs and packages.',
          tools: ['read_file', 'run_command'],
        },
      },
    });
    const planned = await runAgentm(['plan', 'Publish the release'], { home: r.home, cwd: r.cwd });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('  - [ ] Publish the release [id:: s1] → releaser (');
  });

  it('refuses a malformed roster with exit 2, naming the role and the fix', async () => {
    const r = await repo({ 'harness.roles': { releaser: { description: 'Publishes.', tools: ['deploy'] } } });
    const planned = await runAgentm(['plan', 'Publish the release'], { home: r.home, cwd: r.cwd });
    expect(planned.code).toBe(2);
    expect(planned.stderr).toContain(
      'config key harness.roles role "releaser" grants unknown tool(s) deploy; the tools are read_file, list_files, search_text, write_file, run_command',
    );
  });
});
