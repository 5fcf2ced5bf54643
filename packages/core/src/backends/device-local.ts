import { homedir } from 'node:os';
import { join } from 'node:path';
import type { BackendOptions, WriteOptions } from '../seam/backend.js';
import { capabilities } from '../seam/capabilities.js';
import type { Locator } from '../seam/locator.js';
import { casWriteFile } from '../write-protocol/cas-write.js';
import { FsBackend } from './fs-backend.js';

export const DEVICE_LOCAL_PROTOCOL = 'device-local';

/** The device-local root: argument → `AGENTM_DEVICE_LOCAL_ROOT` → `~/.agentm/memory`. */
export function deviceLocalRoot(
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (explicit !== undefined && explicit !== '') return explicit;
  const fromEnv = env['AGENTM_DEVICE_LOCAL_ROOT'];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return fromEnv.trim();
  return join(home, '.agentm', 'memory');
}

/**
 * The fresh-install default: Markdown under a directory on this device, never synced. One writer is
 * assumed (all capabilities false), so there is no lock; writes are still atomic, and a caller's CAS
 * expectation is still checked.
 */
export class DeviceLocalBackend extends FsBackend {
  /** What every instance advertises, readable before construction (selection checks it without creating the root). */
  static readonly declaredCapabilities = capabilities();
  readonly capabilities = DeviceLocalBackend.declaredCapabilities;

  constructor(options: BackendOptions = {}) {
    super(deviceLocalRoot(typeof options.root === 'string' ? options.root : undefined), {
      createRoot: options['createRoot'] !== false,
    });
  }

  protected async writeFile(path: string, content: string, locator: Locator, options: WriteOptions): Promise<void> {
    await casWriteFile(path, content, { expectHash: options.expectHash, label: locator.key });
  }
}
