import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from './temp.js';

/** A temp home holding a vault laid out like Python agentm's, and a repo bound to project `proj`. */
export interface AgentmWorld {
  readonly home: string;
  readonly vault: string;
  /** `<vault>/Agent`, the memory root. */
  readonly memoryRoot: string;
  readonly repo: string;
  /** `<memory root>/desk/projects/proj/_harness`. */
  readonly harness: string;
  readonly configFile: string;
  writeConfig(config: unknown): Promise<void>;
}

export async function agentmWorld(options: { slug?: string } = {}): Promise<AgentmWorld> {
  const home = await tempDir('agentm-cli-');
  const vault = join(home, 'Vault');
  const memoryRoot = join(vault, 'Agent');
  const repo = join(home, 'repo');
  const slug = options.slug ?? 'proj';
  const harness = join(memoryRoot, 'desk', 'projects', slug, '_harness');
  await mkdir(join(memoryRoot, '_meta'), { recursive: true });
  await writeFile(join(memoryRoot, '_meta', 'repos.json'), '{\n  "version": 1,\n  "repos": []\n}\n');
  await mkdir(join(memoryRoot, 'memory', 'convention'), { recursive: true });
  await mkdir(harness, { recursive: true });
  await mkdir(join(repo, '.harness'), { recursive: true });
  await writeFile(join(repo, '.harness', 'project.json'), JSON.stringify({ vault_project: slug }));
  const configFile = join(home, '.claude', '.agentm-config.json');
  return {
    home,
    vault,
    memoryRoot,
    repo,
    harness,
    configFile,
    async writeConfig(config) {
      await mkdir(join(home, '.claude'), { recursive: true });
      await writeFile(
        configFile,
        typeof config === 'string' || Buffer.isBuffer(config) ? config : JSON.stringify(config),
      );
    },
  };
}

/** The config that selects the world's vault with memory root `Agent`. */
export function vaultConfig(world: AgentmWorld): Record<string, unknown> {
  return {
    schema_version: 2,
    'storage.backend': 'vault',
    'plugins.obsidian-vault.vault_path': world.vault,
    'plugins.obsidian-vault.memory_root': 'Agent',
  };
}
