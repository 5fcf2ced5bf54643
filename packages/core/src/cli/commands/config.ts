import type { Command } from 'commander';
import { getConfigValue, setConfigValue, unsetConfigValue } from '../../config/config-writer.js';
import type { CliContext } from '../context.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_USAGE } from '../errors.js';
import { hostOf } from '../support.js';

function parseValue(raw: string, asJson: boolean | undefined): unknown {
  if (!asJson) return raw;
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new CliError(`--json value is not valid JSON (${(error as Error).message})`, EXIT_USAGE);
  }
}

export function registerConfig(program: Command, ctx: CliContext): void {
  const config = program
    .command('config')
    .description('read and change .agentm-config.json (under AGENTM_INSTALL_PREFIX, default ~/.claude)');
  config
    .command('get <key>')
    .description('print a value (strings as is, others as JSON); exit 1 when absent')
    .action(async (key: string) => {
      const value = await getConfigValue(hostOf(ctx), key);
      if (value === undefined) {
        ctx.exitCode = EXIT_CHECK_FAILED;
        return;
      }
      ctx.io.out(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
    });
  config
    .command('set <key> <value>')
    .description('set a value (vault_path also selects the vault); no write when unchanged')
    .option('--json', 'parse the value as JSON (e.g. for spaces)')
    .action(async (key: string, raw: string, opts: { json?: boolean }) => {
      const change = await setConfigValue(hostOf(ctx), key, parseValue(raw, opts.json));
      ctx.io.out(`${change.changed ? 'updated' : 'unchanged'} ${change.file}\n`);
    });
  config
    .command('unset <key>')
    .description('remove a key (vault_path removes the legacy key too); no write when absent')
    .action(async (key: string) => {
      const change = await unsetConfigValue(hostOf(ctx), key);
      ctx.io.out(`${change.changed ? 'updated' : 'unchanged'} ${change.file}\n`);
    });
}
