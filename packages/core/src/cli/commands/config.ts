import type { Command } from 'commander';
import { configFilePath, readConfigStrict } from '../../config/config-file.js';
import { KEY_LEGACY_VAULT_PATH, KEY_SCHEMA_VERSION, KEY_STORAGE_BACKEND, KEY_VAULT_PATH } from '../../config/keys.js';
import { envValue } from '../../config/host.js';
import type { CliContext } from '../context.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_USAGE } from '../errors.js';
import { hostOf, printJson } from '../support.js';
import { redactUrlPasswords } from '../../text/redact.js';

/** The config writer and the key table, loaded when a config command runs (not for `agentm --help`). */
async function configModules() {
  return { ...(await import('../../config/config-writer.js')), ...(await import('../config-keys.js')) };
}

/** A config value as printed: the password of any URL in a string replaced. */
function withoutUrlPasswords(value: unknown): unknown {
  return typeof value === 'string' ? redactUrlPasswords(value) : value;
}

function parseValue(raw: string, asJson: boolean | undefined): unknown {
  if (!asJson) return raw;
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new CliError(`--json value is not valid JSON (${(error as Error).message})`, EXIT_USAGE);
  }
}

/** One row of `config list`. */
interface ConfigRow {
  readonly key: string;
  /** The value in effect (secrets shown as `(set)`), or null when nothing sets it. */
  readonly value: unknown;
  /** `file`, `env NAME`, `default`, `unset`, or `file (…)`. */
  readonly source: string;
}

/** Every known key (and any unknown key the file holds) with the value in effect and where it comes from. */
async function configRows(ctx: CliContext): Promise<ConfigRow[]> {
  const { CONFIG_KEYS, isSecretKey } = await configModules();
  const shown = (key: string, value: unknown) =>
    isSecretKey(key) && value !== undefined ? '(set)' : withoutUrlPasswords(value);
  const host = hostOf(ctx);
  const data = (await readConfigStrict(host)).data ?? {};
  const rows: ConfigRow[] = [];
  for (const spec of CONFIG_KEYS) {
    const fromEnv = spec.env !== undefined ? envValue(host, spec.env) : undefined;
    if (fromEnv !== undefined) {
      rows.push({ key: spec.key, value: shown(spec.key, fromEnv), source: `env ${spec.env}` });
      continue;
    }
    const inFile = data[spec.key];
    if (inFile !== undefined) {
      rows.push({ key: spec.key, value: shown(spec.key, inFile), source: 'file' });
      continue;
    }
    if (spec.key === KEY_VAULT_PATH && data[KEY_LEGACY_VAULT_PATH] !== undefined) {
      rows.push({ key: spec.key, value: data[KEY_LEGACY_VAULT_PATH], source: 'file (legacy key vault_path)' });
      continue;
    }
    if (spec.key === KEY_STORAGE_BACKEND && envValue(host, 'MEMORY_VAULT_PATH') !== undefined) {
      rows.push({ key: spec.key, value: 'vault', source: 'env MEMORY_VAULT_PATH' });
      continue;
    }
    rows.push({
      key: spec.key,
      value: spec.fallback ?? null,
      source: spec.fallback !== undefined ? 'default' : 'unset',
    });
  }
  for (const [key, value] of Object.entries(data)) {
    if (key === KEY_SCHEMA_VERSION || key === KEY_LEGACY_VAULT_PATH || CONFIG_KEYS.some((k) => k.key === key)) continue;
    rows.push({ key, value: shown(key, value), source: 'file (not a key AgentM reads)' });
  }
  return rows;
}

export function registerConfig(program: Command, ctx: CliContext): void {
  const config = program
    .command('config')
    .description('read and change .agentm-config.json (under AGENTM_INSTALL_PREFIX, default ~/.claude)');
  config
    .command('get <key>')
    .description('print a value (strings as is, others as JSON); exit 1 when absent')
    .action(async (key: string) => {
      const { getConfigValue, configKeySpec } = await configModules();
      const value = await getConfigValue(hostOf(ctx), key);
      if (value === undefined) {
        const known = configKeySpec(key) !== undefined;
        ctx.io.err(
          `agentm config: ${key} is not set in ${configFilePath(hostOf(ctx))}` +
            (known ? '' : ' (and it is not a key AgentM reads: agentm config list shows them)') +
            '\n',
        );
        ctx.exitCode = EXIT_CHECK_FAILED;
        return;
      }
      // A URL's password is never printed (a postgres URL must not hold one; one written by hand still stays hidden).
      const shown = withoutUrlPasswords(value);
      ctx.io.out(`${typeof shown === 'string' ? shown : JSON.stringify(shown)}\n`);
    });
  config
    .command('set <key> <value>')
    .description('set a value (vault_path also selects the vault); no write when unchanged')
    .option('--json', 'parse the value as JSON (e.g. for spaces)')
    .option('--force', "write a key AgentM does not know (a third-party backend's own), unchecked")
    .action(async (key: string, raw: string, opts: { json?: boolean; force?: boolean }) => {
      const parsed = parseValue(raw, opts.json);
      const { configKeySpec, canonicalConfigKey, unknownKeyError, typedValue, setConfigValue } = await configModules();
      const spec = configKeySpec(key);
      if (!spec && !opts.force && canonicalConfigKey(key) !== KEY_SCHEMA_VERSION) throw unknownKeyError(key);
      const value = spec ? typedValue(spec, parsed, opts.json === true) : parsed;
      const change = await setConfigValue(hostOf(ctx), key, value);
      ctx.io.out(`${change.changed ? 'updated' : 'unchanged'} ${change.file}\n`);
    });
  config
    .command('unset <key>')
    .description('remove a key (vault_path removes the legacy key too); no write when absent')
    .action(async (key: string) => {
      const { unsetConfigValue } = await configModules();
      const change = await unsetConfigValue(hostOf(ctx), key);
      ctx.io.out(`${change.changed ? 'updated' : 'unchanged'} ${change.file}\n`);
    });
  config
    .command('list')
    .description('every key with the value in effect and its source (file, env, default); secrets are not shown')
    .option('--json', 'print [{key, value, source}] as JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await configRows(ctx);
      if (opts.json) {
        printJson(ctx, { file: configFilePath(hostOf(ctx)), keys: rows });
        return;
      }
      ctx.io.out(`${configFilePath(hostOf(ctx))}\n`);
      const text = (r: ConfigRow) =>
        r.value === null || r.value === '' ? '-' : typeof r.value === 'string' ? r.value : JSON.stringify(r.value);
      const keyWidth = Math.max(...rows.map((r) => r.key.length));
      const valueWidth = Math.min(40, Math.max(...rows.map((r) => [...text(r)].length)));
      for (const r of rows) {
        const source = r.source === 'file' ? (['green', r.source] as const) : (['dim', r.source] as const);
        ctx.term.out.line(`${r.key.padEnd(keyWidth)}  ${text(r).padEnd(valueWidth)}  `, source);
      }
    });
}
