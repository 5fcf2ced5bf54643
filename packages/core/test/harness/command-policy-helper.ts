import { buildCommandEnv } from '../../src/harness/commands/command-env.js';
import type { CommandGate } from '../../src/harness/commands/command-gate.js';
import type { CommandPolicy } from '../../src/harness/commands/command-policy.js';

/** A policy that consents to every command, as `agentm run --yes` does (tests that are not about trust). */
export function consentingPolicy(extra: Partial<CommandPolicy> = {}): CommandPolicy {
  const gate: CommandGate = { check: async () => ({ allowed: true, basis: 'yes' }) };
  return { gate, env: buildCommandEnv(process.env), ...extra };
}
