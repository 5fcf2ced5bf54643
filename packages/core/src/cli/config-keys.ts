import {
  KEY_LEGACY_VAULT_PATH,
  KEY_MEMORY_ROOT,
  KEY_SCHEMA_VERSION,
  KEY_SPACES,
  KEY_STATE_MODE,
  KEY_STORAGE_BACKEND,
  KEY_VAULT_PATH,
} from '../config/keys.js';
import { canonicalConfigKey } from '../config/config-writer.js';
import { ConfigValueError } from '../config/errors.js';
import { PROVIDER_CONFIG_KEYS, PROVIDER_ENV } from '../providers/settings.js';
import { ENV_ALLOW_CONFIG_KEY, envAllowFromConfig } from '../harness/command-exec/command-env.js';
import { KEY_HARNESS_ROLES, rolesFromConfig } from '../harness/tools/roles-config.js';
import { isSecretConfigKey } from '../text/redact.js';
import { KEY_REVALIDATE_AFTER, memorySettingsFromConfig } from '../memory/memory-config.js';
import {
  ENV_PG_URL,
  KEY_PG_LEASE_MS,
  KEY_PG_SCHEMA,
  KEY_PG_URL,
  POSTGRES_DEFAULT_SCHEMA,
  postgresSettings,
} from '../backends/builtins.js';

/** What a key's value must be; `config set` checks it before the writer does its own checks. */
type ValueKind = 'string' | 'path' | 'url' | 'positive-number' | 'object' | 'string-list';

/** A key AgentM reads from `.agentm-config.json`. */
export interface ConfigKeySpec {
  readonly key: string;
  readonly kind: ValueKind;
  readonly about: string;
  /** The environment variable that overrides it, when one does. */
  readonly env?: string;
  /** What applies when neither the file nor the environment sets it. */
  readonly fallback?: string;
  /** Extra check of a well-typed value (throws `ConfigValueError`). */
  readonly check?: (value: unknown) => void;
}

const provider = (role: 'chat' | 'embeddings', use: string): ConfigKeySpec[] => [
  {
    key: PROVIDER_CONFIG_KEYS[role].baseUrl,
    kind: 'url',
    env: PROVIDER_ENV[role].baseUrl,
    about: `the OpenAI-compatible ${role} endpoint (${use}), e.g. http://127.0.0.1:11434/v1`,
    fallback: 'none (no network)',
  },
  {
    key: PROVIDER_CONFIG_KEYS[role].model,
    kind: 'string',
    env: PROVIDER_ENV[role].model,
    about: `the ${role} model the endpoint serves`,
  },
  {
    key: PROVIDER_CONFIG_KEYS[role].apiKey,
    kind: 'string',
    env: PROVIDER_ENV[role].apiKey,
    about: 'its API key (better kept in the environment variable)',
  },
  {
    key: PROVIDER_CONFIG_KEYS[role].timeoutMs,
    kind: 'positive-number',
    about: 'milliseconds one call may take',
    fallback: role === 'chat' ? '60000' : '15000',
  },
];

/**
 * Every key AgentM (and Python agentm) reads, with its type, what overrides it and its fallback. The
 * CLI's `config set` refuses a key not listed (a typo would otherwise be written and silently ignored)
 * unless `--force` says it belongs to a third-party backend; `config list` shows each with its source.
 */
export const CONFIG_KEYS: readonly ConfigKeySpec[] = [
  {
    key: KEY_STORAGE_BACKEND,
    kind: 'string',
    about: 'vault, device-local, or a registered third-party backend',
    fallback: 'vault when MEMORY_VAULT_PATH is set, else device-local',
  },
  {
    key: KEY_VAULT_PATH,
    kind: 'path',
    about: 'the Obsidian vault (an existing folder; `vault_path` also selects the vault backend)',
  },
  {
    key: KEY_MEMORY_ROOT,
    kind: 'string',
    about: "the agent's folder inside the vault, e.g. Agent",
    fallback: 'the vault itself',
  },
  {
    key: KEY_SPACES,
    kind: 'object',
    about: 'space overrides, e.g. {"projects": "desk/projects"}',
    fallback: 'memory, desk/projects, desk/briefs, desk/scratch',
  },
  {
    key: KEY_STATE_MODE,
    kind: 'string',
    about: "local (plans in each repo's .harness/) or backend (a synced store holds them)",
    fallback: 'backend',
  },
  {
    key: KEY_REVALIDATE_AFTER,
    kind: 'string',
    about:
      'how long after a full walk of the notes a recall asks for another in the background (finds edits other programs made in place), e.g. 10s',
    fallback: "10s (or ten walks' time on a large store)",
    check: (value) => memorySettingsFromConfig({ [KEY_REVALIDATE_AFTER]: value }),
  },
  {
    key: 'memory.vocabulary',
    kind: 'object',
    about: 'filing vocabulary override: {"types": [...], "record_kinds": [...], "retired": {...}}',
    fallback: "agentm's storage rules",
  },
  {
    key: KEY_PG_URL,
    kind: 'string',
    env: ENV_PG_URL,
    about: 'the postgres store: postgres://user@host:5432/database (no password: ~/.pgpass or PGPASSWORD)',
    fallback: 'PGHOST, PGPORT, PGUSER, PGDATABASE',
    check: (value) => postgresSettings({ url: value as string }),
  },
  {
    key: KEY_PG_SCHEMA,
    kind: 'string',
    about: 'the PostgreSQL schema the postgres store lives in (one database can hold several)',
    fallback: POSTGRES_DEFAULT_SCHEMA,
    check: (value) => postgresSettings({ url: 'postgres://check@localhost/check', schema: value as string }),
  },
  {
    key: KEY_PG_LEASE_MS,
    kind: 'positive-number',
    about: 'how long a step claimed on the postgres store stays held without a heartbeat',
    fallback: '30000',
  },
  ...provider('chat', 'consolidation, LLM plan steps, the planner'),
  ...provider('embeddings', 'hybrid recall'),
  {
    key: ENV_ALLOW_CONFIG_KEY,
    kind: 'string-list',
    about: 'more environment variables a plan\'s commands get, e.g. ["NPM_CONFIG_*"]',
    fallback: '[] (the safe defaults only)',
    check: (value) => envAllowFromConfig({ [ENV_ALLOW_CONFIG_KEY]: value }),
  },
  {
    key: KEY_HARNESS_ROLES,
    kind: 'object',
    about: "the planner's roster instead of researcher, builder and operator",
    fallback: 'researcher, builder, operator',
    check: (value) => rolesFromConfig({ [KEY_HARNESS_ROLES]: value }),
  },
];

/** The spec of a key (CLI short names accepted: `vault_path`, `memory_root`, `spaces`, `backend`). */
export function configKeySpec(key: string): ConfigKeySpec | undefined {
  const canonical = key === KEY_LEGACY_VAULT_PATH ? KEY_VAULT_PATH : canonicalConfigKey(key);
  return CONFIG_KEYS.find((k) => k.key === canonical);
}

/** The keys a person can set, for messages and completion. */
export function knownKeyNames(): string[] {
  return CONFIG_KEYS.map((k) => k.key);
}

/** An unknown key: names the known ones, and `--force` for a third-party backend's own. */
export function unknownKeyError(key: string): ConfigValueError {
  const known = CONFIG_KEYS.map((k) => `  ${k.key.padEnd(36)} ${k.about}`).join('\n');
  return new ConfigValueError(
    key,
    `${key} is not a key AgentM knows (a typo would be written and then ignored). Known keys:\n${known}\n` +
      `(also the short names vault_path, memory_root, spaces, backend). ` +
      `A third-party backend's own key is set with --force.`,
  );
}

/**
 * The value `config set` writes for `spec`: a number for a positive number given as text, the value
 * itself when it has the right type; `ConfigValueError` naming the key, what it takes and how to give
 * it otherwise. The writer then does its own checks (paths, relative folders, modes).
 */
export function typedValue(spec: ConfigKeySpec, value: unknown, asJson: boolean): unknown {
  const fail = (what: string): never => {
    throw new ConfigValueError(spec.key, `${spec.key} takes ${what}; got ${JSON.stringify(value)}`);
  };
  let out: unknown = value;
  switch (spec.kind) {
    case 'string':
    case 'path':
      if (typeof value !== 'string' || value.trim() === '') fail('a non-empty string');
      break;
    case 'url': {
      if (typeof value !== 'string') fail('an http(s) URL');
      let url: URL | undefined;
      try {
        url = new URL(value as string);
      } catch {
        fail('an http(s) URL such as http://127.0.0.1:11434/v1');
      }
      if (url!.protocol !== 'http:' && url!.protocol !== 'https:')
        fail('an http(s) URL such as http://127.0.0.1:11434/v1');
      break;
    }
    case 'positive-number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) fail('a positive number (milliseconds)');
      out = n;
      break;
    }
    case 'object':
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        fail(`a JSON object${asJson ? '' : ' (give it with --json)'}`);
      break;
    case 'string-list':
      if (!Array.isArray(value) || !value.every((x) => typeof x === 'string'))
        fail(`a JSON list of strings${asJson ? '' : ' (give it with --json)'}`);
      break;
  }
  try {
    spec.check?.(out);
  } catch (error) {
    throw new ConfigValueError(spec.key, (error as Error).message);
  }
  return out;
}

/** Whether a key holds a secret (never shown by `config list`). */
export function isSecretKey(key: string): boolean {
  return isSecretConfigKey(key);
}

export { KEY_SCHEMA_VERSION };
