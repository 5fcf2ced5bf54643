import { describe, expect, it } from 'vitest';
import { DeviceLocalBackend } from '../../src/backends/device-local.js';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { VaultBackend } from '../../src/backends/vault.js';
import { BackendRegistry, StorageBackend } from '../../src/index.js';
import { builtinBackends } from '../../src/backends/builtins.js';
import { ProtocolError } from '../../src/seam/errors.js';

describe('BackendRegistry', () => {
  it('routes a registered protocol to its class and reports a miss as undefined', () => {
    const registry = new BackendRegistry();
    registry.register('memory', MemoryBackend);
    expect(registry.get('memory')).toBe(MemoryBackend);
    expect(registry.has('memory')).toBe(true);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.has('nope')).toBe(false);
  });

  it('lists protocols sorted', () => {
    const registry = new BackendRegistry();
    registry.register('zeta', MemoryBackend);
    registry.register('alpha', MemoryBackend);
    registry.register('mid', MemoryBackend);
    expect(registry.protocols()).toEqual(['alpha', 'mid', 'zeta']);
  });

  it.each([[''], ['   ']])('refuses the empty protocol name %j', (name) => {
    expect(() => new BackendRegistry().register(name, MemoryBackend)).toThrow(ProtocolError);
  });

  it('refuses a duplicate unless clobbered, and says how', () => {
    const registry = new BackendRegistry();
    registry.register('memory', MemoryBackend);
    expect(() => registry.register('memory', DeviceLocalBackend)).toThrow(/clobber/);
    registry.register('memory', DeviceLocalBackend, { clobber: true });
    expect(registry.get('memory')).toBe(DeviceLocalBackend);
  });

  it.each([
    ['a plain object', {}],
    ['a function that is not a backend', function NotABackend() {}],
    ['the abstract base', StorageBackend],
    ['an instance', new MemoryBackend()],
    ['null', null],
  ])('refuses %s with a TypeError', (_what, value) => {
    expect(() => new BackendRegistry().register('x', value as never)).toThrow(TypeError);
  });

  it('keeps instances independent', () => {
    const a = new BackendRegistry();
    const b = new BackendRegistry();
    a.register('only-a', MemoryBackend);
    expect(b.has('only-a')).toBe(false);
    expect(builtinBackends().has('only-a')).toBe(false);
  });

  it('builtinBackends() is a fresh registry with the built-in backends each time (nothing is registered at import)', () => {
    const one = builtinBackends();
    expect(one.get('device-local')).toBe(DeviceLocalBackend);
    expect(one.get('vault')).toBe(VaultBackend);
    one.register('extra', MemoryBackend);
    expect(builtinBackends().protocols()).toEqual(['device-local', 'postgres', 'vault']);
  });
});
