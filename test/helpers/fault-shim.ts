import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { FIXTURES } from './processes.js';

/**
 * The LD_PRELOAD fault shim (test/fixtures/fault-shim.c), compiled once per test file: chosen libc
 * calls of a real agentm process fail or stall for paths under a prefix, and the real code path
 * handles it. Undefined where it cannot be built (no C compiler, or no LD_PRELOAD off Linux): tests
 * that need it are skipped, saying why (`FAULT_SHIM_MISSING`).
 */
export function buildFaultShim(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'agentm-shim-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const shim = join(dir, 'fault-shim.so');
  const cc = spawnSync('cc', ['-shared', '-fPIC', '-o', shim, FIXTURES + 'fault-shim.c', '-ldl'], { stdio: 'ignore' });
  if (cc.status === 0) return shim;
  console.warn(FAULT_SHIM_MISSING);
  return undefined;
}

export const FAULT_SHIM_MISSING =
  'skipped: the fault-injection shim needs Linux and a C compiler (cc); install build-essential to run these tests';
