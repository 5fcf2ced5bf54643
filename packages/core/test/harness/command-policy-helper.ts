import { buildCommandEnv } from '../../src/harness/command-exec/command-env.js';
import type { CommandGate } from '../../src/harness/command-exec/command-gate.js';
import type { CommandPolicy } from '../../src/harness/command-exec/command-policy.js';

/** A policy that consents to every command, as `agentm run --yes` does (tests that are not about trust). */
export function consentingPolicy(extra: Partial<CommandPolicy> = {}): CommandPolicy {
  const gate: CommandGate = { check: async () => ({ allowed: true, basis: 'yes' }) };
  return { gate, env: buildCommandEnv(process.env), ...extra };
}
