import { noteFingerprint, normalizeForFingerprint } from '../notes/fingerprint.js';

/**
 * The engine's fingerprint is the notes module's (DESIGN §12, equal to agentm's): these names are
 * kept as aliases for callers of the engine's first version.
 */
export const normalizeFingerprintText: (text: string) => string = normalizeForFingerprint;

/** sha256 hex of the normalized text (`noteFingerprint`): edits of whitespace, case or blank lines keep it. */
export const textFingerprint: (text: string) => string = noteFingerprint;
