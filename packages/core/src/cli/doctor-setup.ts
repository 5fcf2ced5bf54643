import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configFilePath, readConfigTolerant } from '../config/config-file.js';
import { envValue, type HostEnv } from '../config/host.js';
import { KEY_LEGACY_VAULT_PATH, KEY_STORAGE_BACKEND, KEY_VAULT_PATH } from '../config/keys.js';
import { Workspace } from '../workspace/workspace.js';
import {
  PROVIDER_CONFIG_KEYS,
  PROVIDER_ENV,
  providersFrom,
  resolveProviderSettings,
  type ProviderRole,
} from '../providers/settings.js';
import type { OpenAIEndpointSettings } from '../providers/http-json.js';
import { bestLocalServer, detectLocalServers } from '../providers/local-detect.js';
import { readHealth } from '../memory/indexing/embed-health.js';
import type { DoctorRow } from './doctor.js';
import { formatWait } from './wait-progress.js';

/** How long a live probe of an endpoint may take. */
export const PROBE_TIMEOUT_MS = 10_000;

/**
 * On a fresh install (no config file, no `MEMORY_VAULT_PATH`): how to point AgentM at a vault. Nothing
 * is wrong with the device-local store, so this is a hint, not a warning. Undefined otherwise.
 */
export async function freshInstallRow(host: HostEnv): Promise<DoctorRow | undefined> {
  if (envValue(host, 'MEMORY_VAULT_PATH') !== undefined) return undefined;
  const config = await readConfigTolerant(host);
  if (config[KEY_STORAGE_BACKEND] !== undefined || config[KEY_VAULT_PATH] !== undefined) return undefined;
  if (config[KEY_LEGACY_VAULT_PATH] !== undefined) return undefined;
  return {
    check: 'setup',
    status: 'info',
    line:
      `setup [HINT] no vault is configured (${configFilePath(host)} names none): memories and plans stay on this ` +
      'machine. To keep them in an Obsidian vault: agentm init (or agentm config set vault_path ~/Vault)',
  };
}

function describe(settings: OpenAIEndpointSettings): string {
  return `${settings.model} at ${settings.baseUrl}`;
}

/** A live request to one endpoint: a one-token chat turn, or one embedding. */
async function probe(role: ProviderRole, settings: OpenAIEndpointSettings): Promise<string | undefined> {
  const bounded = { ...settings, timeoutMs: Math.min(settings.timeoutMs ?? PROBE_TIMEOUT_MS, PROBE_TIMEOUT_MS) };
  const providers = providersFrom(role === 'chat' ? { chat: bounded } : { embeddings: bounded });
  try {
    if (role === 'chat') await providers.chat!.chat({ messages: [{ role: 'user', content: 'ping' }], maxTokens: 1 });
    else await providers.embedder!.embed(['ping']);
    return undefined;
  } catch (error) {
    return (error as Error).message ?? String(error);
  }
}

/**
 * The providers a user configured: each endpoint's settings (half a configuration is a failure naming
 * the variable and key to set, as every command would refuse it), or what works without it; with
 * `live`, one request to each configured endpoint, reporting what it answered and how long it took.
 */
export async function providerRows(
  host: HostEnv,
  options: { readonly live?: boolean; readonly detect?: boolean } = {},
): Promise<DoctorRow[]> {
  const config = await readConfigTolerant(host);
  let settings;
  try {
    settings = resolveProviderSettings({ env: host.env, config });
  } catch (error) {
    return [{ check: 'providers', status: 'fail', line: `providers [FAIL] ${(error as Error).message}` }];
  }
  const rows: DoctorRow[] = [];
  const roles: Array<[ProviderRole, OpenAIEndpointSettings | undefined, string]> = [
    ['chat', settings.chat, 'LLM plan steps fail, planning is one step, consolidation extractive'],
    ['embeddings', settings.embeddings, 'recall is lexical'],
  ];
  for (const [role, s, without] of roles) {
    const check = `provider ${role}`;
    if (!s && role === 'embeddings' && options.detect !== false) {
      const local = await localServerRow(host, check);
      if (local) {
        rows.push(local);
        continue;
      }
    }
    if (!s) {
      rows.push({
        check,
        status: 'info',
        line:
          `${check} [HINT] none configured (${without}); set ${PROVIDER_ENV[role].baseUrl} and ${PROVIDER_ENV[role].model}, ` +
          `or agentm config set ${PROVIDER_CONFIG_KEYS[role].baseUrl} … and ${PROVIDER_CONFIG_KEYS[role].model} …`,
      });
      continue;
    }
    if (!options.live) {
      rows.push({ check, status: 'ok', line: `${check} [OK] ${describe(s)} (not contacted; --providers asks it)` });
      continue;
    }
    const started = Date.now();
    const problem = await probe(role, s);
    const took = formatWait(Date.now() - started);
    rows.push(
      problem === undefined
        ? { check, status: 'ok', line: `${check} [OK] ${describe(s)} answered in ${took}` }
        : { check, status: 'fail', line: `${check} [FAIL] ${describe(s)}: ${problem}` },
    );
  }
  for (const w of settings.warnings) rows.push({ check: 'providers', status: 'warn', line: `providers [WARN] ${w}` });
  return rows;
}

/**
 * An embeddings hint from a local server, when one answers (see local-detect.ts): its model and the one
 * command that uses it, or the command that pulls one. Undefined when none answers.
 */
async function localServerRow(host: HostEnv, check: string): Promise<DoctorRow | undefined> {
  const servers = await detectLocalServers(host.env);
  const best = bestLocalServer(servers);
  const keys = PROVIDER_CONFIG_KEYS.embeddings;
  if (best !== undefined)
    return {
      check,
      status: 'info',
      line:
        `${check} [HINT] none configured (recall is lexical); ${best.name} at ${best.url} has ${best.offer}: ` +
        `agentm init --embed-local (or agentm config set ${keys.baseUrl} ${best.baseUrl} and ${keys.model} ${best.offer})`,
    };
  const bare = servers[0];
  if (bare === undefined) return undefined;
  return {
    check,
    status: 'info',
    line: `${check} [HINT] none configured (recall is lexical); ${bare.name} runs at ${bare.url} without an embedding model: ${bare.getOne}, then agentm init --embed-local`,
  };
}

/**
 * The project of the current directory: its slug and where it comes from, where its plans live; a
 * repository without one is told how to bind it. Outside a repository, nothing to say.
 */
export async function projectRow(host: HostEnv, cwd: string): Promise<DoctorRow | undefined> {
  let ws: Workspace;
  try {
    ws = await Workspace.open({ host, projectRoot: cwd, createRoot: false });
  } catch {
    return undefined; // the storage row already says why no store can be selected
  }
  try {
    const project = await ws.project();
    if (project?.slug !== undefined) {
      const { files } = await (await ws.harness()).planFiles();
      return {
        check: 'project',
        status: 'ok',
        line: `project [OK] ${cwd} is project '${project.slug}' (from ${project.slugSource}); plans in ${files.planLabel.replace(/[^/\\]*$/, '')}`,
      };
    }
  } catch (error) {
    return { check: 'project', status: 'fail', line: `project [FAIL] ${(error as Error).message}` };
  }
  const repo = existsSync(join(cwd, '.git')) || existsSync(join(cwd, '.harness'));
  if (!repo) return undefined;
  return {
    check: 'project',
    status: 'warn',
    line:
      `project [WARN] ${cwd} is not bound to a project (no .harness/project.json, no github.repo, no git origin): ` +
      'its plans stay in .harness/ and its notes are not grouped. Bind it with: agentm init --project <slug>',
  };
}

/** The memory index of the store: built or not, how many documents, how old (never builds it). */
export async function indexRow(host: HostEnv): Promise<DoctorRow | undefined> {
  let ws: Workspace;
  try {
    ws = await Workspace.open({ host, createRoot: false });
  } catch {
    return undefined; // the storage row already says why no store can be selected
  }
  if (ws.localRoot === undefined) return undefined;
  let index;
  try {
    index = await ws.openIndex();
  } catch (error) {
    return { check: 'index', status: 'warn', line: `index [WARN] cannot be opened: ${(error as Error).message}` };
  }
  if (index.loadStatus === 'missing')
    return {
      check: 'index',
      status: 'info',
      line: `index [HINT] not built yet (${index.dir}): the first recall builds it, or agentm reindex`,
    };
  if (index.loadStatus !== 'loaded')
    return {
      check: 'index',
      status: 'warn',
      line: `index [WARN] ${index.loadStatus} (${index.loadDetail}); the next recall rebuilds it, or agentm reindex --full`,
    };
  const documents = `${index.state.docs.size} document(s) from ${index.state.files.size} file(s) (${index.dir})`;
  const embeddings = index.embeddings;
  if (embeddings === undefined) return { check: 'index', status: 'ok', line: `index [OK] ${documents}` };
  const failing = readHealth(index.dir, embeddings.provider.id);
  const vectors = `${embeddings.vectors.vectors.size} vector(s) from ${embeddings.provider.id}`;
  if (failing !== undefined)
    return {
      check: 'index',
      status: 'warn',
      line: `index [WARN] ${documents}; ${vectors}; the endpoint fails (${failing.message}): recall is lexical until it answers (agentm doctor --providers asks it)`,
    };
  const state = embeddings.behind() ? 'some notes still to embed (agentm reindex does it now)' : 'every note embedded';
  return { check: 'index', status: 'ok', line: `index [OK] ${documents}; ${vectors}, ${state}` };
}
