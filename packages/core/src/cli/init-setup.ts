import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { readConfigTolerant } from '../config/config-file.js';
import { setConfigValues, type ConfigChange } from '../config/config-writer.js';
import { expandHome, type HostEnv } from '../config/host.js';
import { KEY_MEMORY_ROOT, KEY_VAULT_PATH } from '../config/keys.js';
import { validateRelativePrefix } from '../config/roots.js';
import { PROVIDER_CONFIG_KEYS, type ProviderRole } from '../providers/settings.js';
import type { LocalServer } from '../providers/local-detect.js';
import { slugifyTitle } from '../harness/plan/step-ids.js';
import { bindProject, type ProjectBinding } from '../routing/project-binding.js';
import { isSafeSegment, readProjectSlug } from '../routing/slug.js';
import { configKeySpec, typedValue } from './config-keys.js';
import { CliError, EXIT_USAGE } from './errors.js';

/** An endpoint as `init` takes it: both halves, or neither. */
export interface EndpointAnswer {
  readonly url: string;
  readonly model: string;
}

/** What `agentm init` sets. Absent: leave as it is. */
export interface InitAnswers {
  readonly vault?: string | undefined;
  readonly memoryRoot?: string | undefined;
  readonly project?: string | undefined;
  readonly chat?: EndpointAnswer | undefined;
  readonly embeddings?: EndpointAnswer | undefined;
}

/** What is there now, for the prompts' defaults. */
export interface InitDefaults {
  readonly vault?: string | undefined;
  readonly memoryRoot: string;
  readonly project?: string | undefined;
  readonly projectSource?: string | undefined;
  readonly chat?: Partial<EndpointAnswer> | undefined;
  readonly embeddings?: Partial<EndpointAnswer> | undefined;
  /** Local embedding servers found on this machine (offered when no embeddings endpoint is set yet). */
  readonly local?: readonly LocalServer[] | undefined;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The current settings, and a project slug for this folder (its binding, its git origin, else its name). */
export async function initDefaults(host: HostEnv, cwd: string): Promise<InitDefaults> {
  const config = await readConfigTolerant(host);
  const endpoint = (role: ProviderRole) => {
    const url = str(config[PROVIDER_CONFIG_KEYS[role].baseUrl]);
    const model = str(config[PROVIDER_CONFIG_KEYS[role].model]);
    return url || model ? { url, model } : undefined;
  };
  let found: { slug: string; source: string } | undefined;
  try {
    found = await readProjectSlug(cwd, { env: host.env });
  } catch {
    found = undefined; // an unusable slug: offer the folder's name instead
  }
  const fromName = slugifyTitle(basename(cwd));
  return {
    vault: str(config[KEY_VAULT_PATH]) ?? str(config['vault_path']),
    memoryRoot: str(config[KEY_MEMORY_ROOT]) ?? 'Agent',
    project: found?.slug ?? (isSafeSegment(fromName) ? fromName : undefined),
    projectSource: found?.source ?? (fromName ? 'the folder name' : undefined),
    chat: endpoint('chat'),
    embeddings: endpoint('embeddings'),
  };
}

/** Why a vault folder cannot be used, or undefined when it can. */
export function vaultProblem(host: HostEnv, value: string): string | undefined {
  const path = resolve(expandHome(value.trim(), host.home));
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory())
    return `${path} is not an existing folder: create it (or open it in Obsidian once) first`;
  return undefined;
}

/** Why a memory root cannot be used, or undefined. */
export function memoryRootProblem(value: string): string | undefined {
  return validateRelativePrefix(value) === undefined
    ? 'a folder inside the vault, such as Agent (not absolute, no ":" and no "..")'
    : undefined;
}

/** Why a project slug cannot be used, or undefined. */
export function projectProblem(value: string): string | undefined {
  return isSafeSegment(value.trim()) ? undefined : 'one plain folder name, such as my-app (no "/", "\\", "." or "..")';
}

/** Checks every answer before anything is written; a usage error (exit 2) names the first bad one. */
export function checkAnswers(host: HostEnv, answers: InitAnswers): Array<[string, unknown]> {
  const entries: Array<[string, unknown]> = [];
  const bad = (what: string, why: string): never => {
    throw new CliError(`init: ${what}: ${why}; nothing was written`, EXIT_USAGE);
  };
  if (answers.vault !== undefined) {
    const problem = vaultProblem(host, answers.vault);
    if (problem) bad('--vault', problem);
    entries.push(['vault_path', answers.vault.trim()]);
  }
  if (answers.memoryRoot !== undefined) {
    const problem = memoryRootProblem(answers.memoryRoot);
    if (problem) bad('--memory-root', `takes ${problem}`);
    entries.push([KEY_MEMORY_ROOT, answers.memoryRoot.trim()]);
  }
  if (answers.project !== undefined) {
    const problem = projectProblem(answers.project);
    if (problem) bad('--project', `takes ${problem}`);
  }
  for (const role of ['chat', 'embeddings'] as const) {
    const e = answers[role];
    if (!e) continue;
    const flag = role === 'chat' ? 'chat' : 'embed';
    if (!e.url || !e.model) bad(`--${flag}-url and --${flag}-model`, 'give both, or neither');
    for (const [key, value] of [
      [PROVIDER_CONFIG_KEYS[role].baseUrl, e.url],
      [PROVIDER_CONFIG_KEYS[role].model, e.model],
    ] as const) {
      try {
        entries.push([key, typedValue(configKeySpec(key)!, value, false)]);
      } catch (error) {
        bad(`--${flag}-${key.endsWith('base_url') ? 'url' : 'model'}`, (error as Error).message);
      }
    }
  }
  return entries;
}

/** Writes what was checked: the config in one write (through the config writer), then the project binding. */
export async function applyInit(
  host: HostEnv,
  cwd: string,
  answers: InitAnswers,
  entries: ReadonlyArray<readonly [string, unknown]>,
  options: { readonly force?: boolean } = {},
): Promise<{ readonly config?: ConfigChange; readonly binding?: ProjectBinding }> {
  const force = options.force ? { force: true } : {};
  // A binding that would be refused refuses before the config is written: all or nothing.
  if (answers.project !== undefined) await bindProject(cwd, answers.project.trim(), { ...force, dryRun: true });
  const config = entries.length > 0 ? await setConfigValues(host, entries) : undefined;
  const binding = answers.project !== undefined ? await bindProject(cwd, answers.project.trim(), force) : undefined;
  return { ...(config ? { config } : {}), ...(binding ? { binding } : {}) };
}
