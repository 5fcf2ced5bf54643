import type { ConfigData } from '../../config/config-file.js';
import { secretValues } from '../../text/redact.js';
import { defaultRunRecordsDir, RunRecords } from './run-records.js';
import { approvalsFilePath } from './approvals-file.js';
import { buildCommandEnv, envAllowFromConfig } from './command-env.js';
import { createCommandGate, type ApprovalAsker, type CommandGate } from './command-gate.js';

/**
 * Everything a command of a plan or a model needs before it may start: the approval gate, the
 * environment without secrets, and the records that let a later run end it if this one crashes. One
 * object, handed to the dispatcher by the front end, so no executor can spawn without it.
 */
export interface CommandPolicy {
  readonly gate: CommandGate;
  /** The environment commands get (already without secrets; the step's identity is added per step). */
  readonly env: Readonly<Record<string, string>>;
  /** Known secret values, redacted from what a command prints before anyone (a model included) sees it. */
  readonly secrets?: readonly string[];
  /** Device-local process-group records (absent: no crash recovery of commands, e.g. on Windows). */
  readonly records?: RunRecords;
}

export interface CommandPolicyOptions {
  readonly projectRoot: string;
  /** The front end's environment and home (the CLI's, the VS Code extension host's). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  /** The agentm config (`harness.env_allow`, `providers.*.api_key`). */
  readonly config: ConfigData;
  /** `agentm run --yes`. */
  readonly yes?: boolean;
  /** Who to ask; absent → unapproved commands are refused. */
  readonly ask?: ApprovalAsker;
  /** Secrets the front end holds elsewhere (VS Code's secret storage). */
  readonly secrets?: readonly string[];
}

/** The policy of a front end's run. A malformed `harness.env_allow` throws `EnvAllowConfigError`. */
export function commandPolicyFor(options: CommandPolicyOptions): CommandPolicy {
  const secrets = [...secretValues(options.env, options.config), ...(options.secrets ?? [])];
  const env = buildCommandEnv(options.env, { allow: envAllowFromConfig(options.config), secrets });
  const gate = createCommandGate({
    projectRoot: options.projectRoot,
    file: approvalsFilePath(options.env, options.home),
    ...(options.yes ? { yes: true } : {}),
    ...(options.ask ? { ask: options.ask } : {}),
    env: options.env as NodeJS.ProcessEnv,
    home: options.home,
  });
  return {
    gate,
    env,
    secrets,
    ...(process.platform === 'win32'
      ? {}
      : { records: new RunRecords(defaultRunRecordsDir(options.env, options.home)) }),
  };
}
