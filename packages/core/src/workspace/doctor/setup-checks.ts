import {
  CAPABILITY_FLAGS,
  CAPABILITY_SNAKE_NAMES,
  missingCapabilities,
  type Capabilities,
} from '../../seam/capabilities.js';
import { contentHash } from '../../write-protocol/content-hash.js';
import { defaultLockRoot, lockDirFor, realpathLoose } from '../../write-protocol/vault-lock.js';
import { configFilePath, readConfigTolerant } from '../../config/config-file.js';
import { envValue, type HostEnv } from '../../config/host.js';
import { KEY_LEGACY_VAULT_PATH, KEY_STORAGE_BACKEND, KEY_VAULT_PATH } from '../../config/keys.js';
import { legacyOnlyVault } from '../../config/roots.js';
import { ORIGIN_ENV } from '../../selection/choose-protocol.js';
import { CapabilityMismatchError } from '../../selection/errors.js';
import { storagePreview } from '../../selection/storage-preview.js';
import type { DoctorCheck, DoctorOptions } from './check.js';
import type { DoctorSubject } from './subject.js';

const VAULT_ENV = 'MEMORY_VAULT_PATH';

/**
 * The storage check: what selection does with this context's host (`storagePreview`: never throws,
 * never writes). In an editor whose own setting sets the memory root, the origin is that setting, not
 * the environment variable it is handed to core as.
 */
export async function storageCheck(host: HostEnv, agents: DoctorOptions['agents']): Promise<DoctorCheck> {
  const preview = await storagePreview({ host });
  const override = agents?.override;
  const overridden = override !== undefined && envValue(host, VAULT_ENV) !== envValue(agents!.host, VAULT_ENV);
  if (!overridden) return { id: 'storage', status: preview.status, message: preview.message };
  if (preview.status === 'fail')
    return {
      id: 'storage',
      status: 'fail',
      message: `${override} names the memory root ${envValue(host, VAULT_ENV)}, which cannot be used: ${preview.message}`,
      fix: `set ${override} to an existing folder, or clear it to use the shared .agentm-config.json`,
    };
  return {
    id: 'storage',
    status: preview.status,
    message: `${preview.message.replace(`(${ORIGIN_ENV})`, `(${override})`)}; the memory root is set by ${override}, overriding .agentm-config.json`,
  };
}

/**
 * Whether an editor and the agents in its folder share one memory root and one lock: the same notes,
 * plans and lock directory, so the lock excludes the editor's writes from the agents'. Fails, naming
 * both and the fix, when they do not. Only for an editor (`options.agents`); undefined otherwise.
 */
export async function agreementCheck(
  ws: DoctorSubject,
  agents: NonNullable<DoctorOptions['agents']>,
): Promise<DoctorCheck | undefined> {
  const theirs = await storagePreview({ host: agents.host });
  const mine = ws.localRoot;
  if (mine === undefined) return undefined; // a store with no folder here has no lock directory to compare
  const myLock = lockDirFor(mine, ws.lockRoot);
  const agentsUse = 'an agent in this folder (the agentm CLI, agentm mcp, Claude Code hooks)';
  const fix =
    agents.fix ??
    `point both at one vault and agent folder: agentm init --vault <vault> --memory-root <agent folder>, run where the agents run`;
  if (theirs.status === 'fail' || theirs.root === undefined)
    return {
      id: 'agreement',
      status: 'fail',
      message: `this editor keeps memory in ${mine}, but ${agentsUse} has no store there: ${theirs.message}`,
      fix,
    };
  const theirLock = lockDirFor(theirs.root, defaultLockRoot(agents.host.env as NodeJS.ProcessEnv, agents.host.home));
  if (realpathLoose(theirs.root) !== realpathLoose(mine) || theirLock !== myLock)
    return {
      id: 'agreement',
      status: 'fail',
      message:
        `this editor keeps memory in ${mine} (lock ${myLock}), but ${agentsUse} uses ${theirs.root} (lock ${theirLock}): ` +
        "neither sees the other's notes and plans, and their writes do not exclude each other",
      fix,
    };
  return {
    id: 'agreement',
    status: 'ok',
    message: `this editor and the agents in this folder share the memory root ${mine} and the lock ${myLock}`,
  };
}

/**
 * On a fresh install (no config file naming a store, no `MEMORY_VAULT_PATH`): how to point AgentM at a
 * vault. Nothing is wrong with the device-local store, so this is a hint. Undefined otherwise.
 */
export async function freshInstallCheck(host: HostEnv): Promise<DoctorCheck | undefined> {
  if (envValue(host, VAULT_ENV) !== undefined) return undefined;
  const config = await readConfigTolerant(host);
  if ([KEY_STORAGE_BACKEND, KEY_VAULT_PATH, KEY_LEGACY_VAULT_PATH].some((k) => config[k] !== undefined))
    return undefined;
  return {
    id: 'setup',
    status: 'info',
    message: `no vault is configured (${configFilePath(host)} names none): memories and plans stay on this machine`,
    fix: 'to keep them in an Obsidian vault: agentm init (or agentm config set vault_path ~/Vault)',
  };
}

/**
 * A warning when the config names the vault only with the legacy `vault_path` key: it still selects the
 * vault (config is never rewritten while read); the fix says how to migrate. Undefined otherwise.
 */
export async function legacyConfigCheck(host: HostEnv): Promise<DoctorCheck | undefined> {
  const legacy = await legacyOnlyVault(await readConfigTolerant(host), host);
  if (legacy === undefined) return undefined;
  return {
    id: 'config',
    status: 'warn',
    message: `${configFilePath(host)} names the vault only with the legacy key vault_path (${legacy}); it is used as is`,
    fix: `Migrate with: agentm config set vault_path ${legacy}`,
  };
}

/** The `requires` check: whether the selected store offers the capabilities asked for. */
export function requiresCheck(
  ws: DoctorSubject | undefined,
  opened: unknown,
  required: Partial<Capabilities>,
): DoctorCheck {
  const names = CAPABILITY_FLAGS.filter((f) => required[f]).map((f) => CAPABILITY_SNAKE_NAMES[f]);
  if (!ws) return { id: 'requires', status: 'fail', message: messageOf(opened) };
  const missing = missingCapabilities(required, ws.backend.capabilities);
  if (missing.length > 0)
    return { id: 'requires', status: 'fail', message: new CapabilityMismatchError(ws.protocol, missing).message };
  return {
    id: 'requires',
    status: 'ok',
    message: `backend '${ws.protocol}' satisfies required capabilities: ${names.join(', ') || '(none)'}`,
  };
}

/** Writes a probe note through the store with a CAS expectation, reads it back, compares the bytes, removes it. */
export async function roundTripCheck(
  ws: DoctorSubject | undefined,
  opened: unknown,
  now = new Date(),
): Promise<DoctorCheck> {
  if (!ws) return { id: 'roundtrip', status: 'fail', message: `no backend to write through: ${messageOf(opened)}` };
  const { backend, protocol } = ws;
  const probe = backend.resolve('_meta', 'doctor-roundtrip.md');
  const content = `# agentm doctor round trip\n\nwritten ${now.toISOString()} by pid ${process.pid}: café ναί 🦗\r\nend\n`;
  try {
    const previous = (await backend.exists(probe)) ? contentHash(await backend.read(probe)) : null;
    await backend.write(probe, content, { expectHash: previous });
    if ((await backend.read(probe)) !== content)
      return {
        id: 'roundtrip',
        status: 'fail',
        message: `${probe.key} read back different bytes through '${protocol}'`,
      };
    const bytes = Buffer.byteLength(content, 'utf8');
    // The probe is not the user's data: remove it (only if it still holds our bytes) so no note is left behind.
    const removed = backend.remove !== undefined;
    if (removed) await backend.remove!(probe, { expectHash: contentHash(content) });
    return {
      id: 'roundtrip',
      status: 'ok',
      message: `wrote and read back ${probe.key} (${bytes} bytes) through '${protocol}'${removed ? ', then removed it' : ''}`,
    };
  } catch (error) {
    return { id: 'roundtrip', status: 'fail', message: messageOf(error) };
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
