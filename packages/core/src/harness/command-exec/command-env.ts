import { isSecretName } from '../../text/redact.js';
import { HarnessError } from '../errors.js';

/**
 * The environment a command gets (a plan step's `cmd::`, the model's `run_command`): an allow-list of
 * the parent's variables, never AgentM's or anyone's secrets. Step output is logged to the synced
 * progress file, so a variable a command can print is a variable that can reach the vault.
 */
export const ENV_ALLOW_CONFIG_KEY = 'harness.env_allow';

/** What every command gets by default: the basics of a shell session, the locale, temp dirs, and Windows' essentials. */
export const DEFAULT_ENV_ALLOW: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'XDG_*',
  'CI',
  'AGENTM_*',
  'MEMORY_VAULT_PATH',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
]);

/** `harness.env_allow` that is not a list of variable names (or `PREFIX_*` patterns). */
export class EnvAllowConfigError extends HarnessError {
  constructor(got: unknown) {
    super(
      `config key ${ENV_ALLOW_CONFIG_KEY} must be a list of environment variable names or NAME_* patterns, got ${JSON.stringify(got)}; ` +
        `fix it with agentm config set ${ENV_ALLOW_CONFIG_KEY} '["MY_VAR", "NPM_CONFIG_*"]' --json`,
      { code: 'EENVALLOW' },
    );
  }
}

/** The extra names from the config (added to the defaults); absent → none. */
export function envAllowFromConfig(config: Readonly<Record<string, unknown>>): string[] {
  const raw = config[ENV_ALLOW_CONFIG_KEY];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || !raw.every((x) => typeof x === 'string' && /^[A-Za-z_][A-Za-z0-9_]*\*?$/.test(x.trim())))
    throw new EnvAllowConfigError(raw);
  return raw.map((x: string) => x.trim());
}

function matches(pattern: string, name: string): boolean {
  const p = pattern.toUpperCase();
  const n = name.toUpperCase();
  return p.endsWith('*') ? n.startsWith(p.slice(0, -1)) : n === p;
}

export interface CommandEnvOptions {
  /** Names or `PREFIX_*` patterns added to `DEFAULT_ENV_ALLOW` (the config's `harness.env_allow`). */
  readonly allow?: readonly string[];
  /** Secret values (configured API keys): a variable holding one is dropped unless named exactly in `allow`. */
  readonly secrets?: readonly string[];
}

/**
 * The environment for a command, pure: the parent's variables whose names match the allow-list
 * (case-insensitively), minus every secret-named variable (`*_API_KEY`, `*_TOKEN`, `*_SECRET`, …) and
 * every variable whose value is a known secret — unless the user's `allow` names that variable
 * exactly (a pattern never lets a secret through).
 */
export function buildCommandEnv(
  parent: Readonly<Record<string, string | undefined>>,
  options: CommandEnvOptions = {},
): Record<string, string> {
  const extra = options.allow ?? [];
  const patterns = [...DEFAULT_ENV_ALLOW, ...extra];
  const exact = new Set(extra.filter((p) => !p.endsWith('*')).map((p) => p.toUpperCase()));
  const secrets = new Set(options.secrets ?? []);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || !patterns.some((p) => matches(p, name))) continue;
    const secret = isSecretName(name) || secrets.has(value.trim());
    if (secret && !exact.has(name.toUpperCase())) continue;
    env[name] = value;
  }
  return env;
}
