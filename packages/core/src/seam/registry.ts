import { StorageBackend, type BackendClass } from './backend.js';
import { ProtocolError } from './errors.js';

/**
 * Protocol name → backend class. A bad registration throws at once; a miss is absence (`undefined`),
 * which selection turns into a loud failure when the configured backend is missing. Instances are
 * independent: a fresh registry shares nothing with the default one.
 */
export class BackendRegistry {
  readonly #classes = new Map<string, BackendClass>();

  register(protocol: string, backend: BackendClass, options: { clobber?: boolean } = {}): void {
    if (typeof backend !== 'function' || !(backend.prototype instanceof StorageBackend)) {
      throw new TypeError(
        `cannot register ${describe(backend)} as backend ${JSON.stringify(protocol)}: ` +
          'register a concrete class that extends StorageBackend (not an instance, not the abstract base)',
      );
    }
    if (typeof protocol !== 'string' || protocol.trim() === '') {
      throw new ProtocolError('a backend protocol name must be a non-empty string');
    }
    if (this.#classes.has(protocol) && options.clobber !== true) {
      throw new ProtocolError(
        `backend protocol ${JSON.stringify(protocol)} is already registered; pass { clobber: true } to replace it deliberately`,
      );
    }
    this.#classes.set(protocol, backend);
  }

  /** The registered class, or `undefined` (a miss is never an error). */
  get(protocol: string): BackendClass | undefined {
    return this.#classes.get(protocol);
  }

  has(protocol: string): boolean {
    return this.#classes.has(protocol);
  }

  /** Removes a registration; returns whether one was present. */
  unregister(protocol: string): boolean {
    return this.#classes.delete(protocol);
  }

  /** Registered names, sorted. */
  protocols(): string[] {
    return [...this.#classes.keys()].sort();
  }
}

function describe(value: unknown): string {
  if (value === StorageBackend) return 'the abstract StorageBackend base';
  if (value instanceof StorageBackend) return `an instance of ${value.constructor.name}`;
  if (typeof value === 'function') return `class ${value.name || '(anonymous)'}`;
  return `a ${value === null ? 'null' : typeof value}`;
}
