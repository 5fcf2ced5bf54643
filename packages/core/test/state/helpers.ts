import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configFilePath } from '../../src/config/config-file.js';
import { resolveProject, type ProjectResolution } from '../../src/routing/resolve-project.js';
import { type HostEnv } from '../../src/index.js';
import { tempDir } from '../../../../test/helpers/temp.js';

export interface StateWorld {
  readonly home: string;
  readonly repo: string;
  readonly memoryRoot: string;
  readonly host: HostEnv;
  resolve(): Promise<ProjectResolution>;
}

/** A temp home, a repo with `.harness/project.json` (slug `proj`) and, with `vault`, a vault laid out like agentm's. */
export async function stateWorld(
  options: { vault?: boolean; config?: Record<string, unknown> } = {},
): Promise<StateWorld> {
  const home = await tempDir();
  const repo = join(home, 'repo');
  const memoryRoot = join(home, 'Vault', 'Agent');
  await mkdir(join(repo, '.harness'), { recursive: true });
  await writeFile(join(repo, '.harness', 'project.json'), JSON.stringify({ vault_project: 'proj' }));
  await mkdir(join(memoryRoot, 'desk', 'projects', 'proj', '_harness'), { recursive: true });
  const env: Record<string, string> = {
    AGENTM_INSTALL_PREFIX: join(home, 'prefix'),
    XDG_CACHE_HOME: join(home, 'cache'),
    AGENTM_DEVICE_LOCAL_ROOT: join(home, 'device'),
  };
  if (options.vault) env['MEMORY_VAULT_PATH'] = memoryRoot;
  const host = { env, home };
  if (options.config) {
    await mkdir(join(home, 'prefix'));
    await writeFile(configFilePath(host), JSON.stringify(options.config));
  }
  return {
    home,
    repo,
    memoryRoot,
    host,
    resolve: () => resolveProject({ cwd: repo, host, gitRemote: async () => undefined }),
  };
}
