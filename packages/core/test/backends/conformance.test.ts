import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConformanceFailure,
  runConformance,
  UNIVERSAL_CHECKS,
  type BackendFactory,
} from '../../src/backends/conformance.js';
import { DeviceLocalBackend } from '../../src/backends/device-local.js';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { VaultBackend } from '../../src/backends/vault.js';
import { StorageBackend } from '../../src/index.js';
import { TierLayout } from '../../src/seam/tiers.js';
import { tempDir } from '../../../../test/helpers/temp.js';

const factories: Array<[string, BackendFactory]> = [
  ['device-local', async () => new DeviceLocalBackend({ root: join(await tempDir(), 'store') })],
  [
    'vault',
    async () => {
      const dir = await tempDir();
      return new VaultBackend({ root: join(dir, 'Vault', 'Agent'), lockRoot: join(dir, 'locks') });
    },
  ],
  ['in-memory double', () => new MemoryBackend()],
];

describe.each(factories)('%s backend conformance', (_name, make) => {
  it.each(UNIVERSAL_CHECKS.map((c) => [c.name, c] as const))('%s', async (_check, c) => {
    await c.run(make);
  });

  it('passes runConformance as a whole', async () => {
    const report = await runConformance(make);
    expect(report.universal).toEqual(UNIVERSAL_CHECKS.map((c) => c.name));
    expect(report.derived).toBe('skipped');
  });
});

describe('derived rebuild check', () => {
  it('passes for a backend whose derived tier is rebuilt from source', async () => {
    const layout = new TierLayout({ source: 'src', localIndex: 'idx' });
    const report = await runConformance(() => new MemoryBackend({ derivedLayout: layout }), { derivedLayout: layout });
    expect(report.derived).toBe('passed');
  });

  it('fails loudly for a backend without derived maintenance', async () => {
    const layout = new TierLayout({ source: 'src', localIndex: 'idx' });
    await expect(runConformance(() => new MemoryBackend(), { derivedLayout: layout })).rejects.toThrow(
      /derivedMaintenance/,
    );
  });
});

describe('the suite catches broken backends', () => {
  /** A backend that normalizes line endings on write: the kind of bug the suite exists for. */
  class CrlfEatingBackend extends MemoryBackend {
    override write(...args: Parameters<MemoryBackend['write']>) {
      const [loc, content, options] = args;
      return super.write(loc, content.replace(/\r\n/g, '\n'), options);
    }
  }
  /** A backend whose list raises on an absent directory. */
  class ListRaisingBackend extends MemoryBackend {
    override async list(...args: Parameters<MemoryBackend['list']>) {
      if (!(await this.exists(args[0]))) throw new Error('ENOENT');
      return super.list(...args);
    }
  }

  it.each([
    [CrlfEatingBackend, 'lf_exact_round_trip', /LF-exact/],
    [ListRaisingBackend, 'list_on_absent', /not raise/],
  ] as Array<[new () => StorageBackend, string, RegExp]>)('%o fails %s', async (cls, check, message) => {
    const error = await runConformance(() => new cls()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConformanceFailure);
    expect((error as ConformanceFailure).check).toBe(check);
    expect((error as Error).message).toMatch(message);
  });
});
