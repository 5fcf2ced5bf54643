import type { StorageBackend } from './backend.js';

/** A backend that can hold its store's lock across several verbs (the vault does; re-entrant). */
export interface LockingBackend {
  withLock<T>(fn: () => Promise<T>): Promise<T>;
}

/** Whether a backend offers `withLock`. */
export function isLockingBackend(backend: StorageBackend): backend is StorageBackend & LockingBackend {
  return typeof (backend as StorageBackend & Partial<LockingBackend>).withLock === 'function';
}

/**
 * Runs `fn` under the backend's store lock when it has one (so a read-modify-write is atomic against
 * every other writer that takes the lock), else just runs it. Callers still CAS their writes: that
 * guards against writers outside the lock (sync clients, editors).
 */
export function withBackendLock<T>(backend: StorageBackend, fn: () => Promise<T>): Promise<T> {
  return isLockingBackend(backend) ? backend.withLock(fn) : fn();
}
