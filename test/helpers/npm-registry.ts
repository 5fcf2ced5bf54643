import { afterEach } from 'vitest';
import { refusingRegistry, startRegistry, type LocalRegistry } from './npm-registry.mjs';

export { refusingRegistry, type LocalRegistry };

const open = new Set<LocalRegistry>();
afterEach(async () => {
  await Promise.all([...open].map((r) => r.close()));
  open.clear();
});

/** A registry on 127.0.0.1 serving `tarball` (an `npm pack` of `manifest`); closed after the test. */
export async function serveTarball(
  tarball: string,
  manifest: { name: string; version: string },
): Promise<LocalRegistry> {
  const registry = await startRegistry(tarball, manifest);
  open.add(registry);
  return {
    ...registry,
    close: async () => {
      open.delete(registry);
      await registry.close();
    },
  };
}
