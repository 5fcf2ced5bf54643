import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { VaultBackend } from '../../src/backends/vault.js';
import { evolveNote } from '../../src/memory/notes/evolve.js';
import { NoteValidationError } from '../../src/memory/notes/errors.js';
import { noteFingerprint } from '../../src/memory/notes/fingerprint.js';
import { buildNote, saveNote } from '../../src/memory/notes/save.js';

const NOW = new Date(2026, 4, 1);
const RAW = [
  'The deploy failed for jane.doe@example.com at 555-123-4567.',
  'Stack: /Users/jane/src/app/deploy.ts:42 and C:\\Users\\Jane\\app\\x.log',
  'The key sk-abcdefghijklmnopqrstuvwx1234 and ghp_0123456789abcdefghijABCDEFGHIJ012345 leaked, plus AKIAABCDEFGHIJKLMNOP.',
  '',
].join('\n');
const SCRUBBED = [
  'The deploy failed for [REDACTED-EMAIL] at [REDACTED-PHONE].',
  'Stack: [REDACTED-PATH] and [REDACTED-PATH]',
  'The key [REDACTED-API-KEY] and [REDACTED-API-KEY] leaked, plus [REDACTED-API-KEY].',
].join('\n');

describe('failure-incident notes are scrubbed before they reach disk (agentm parity)', () => {
  it('save writes the scrubbed body and fingerprints the scrubbed text', async () => {
    const root = await tempDir();
    const backend = new VaultBackend({ root, lockRoot: join(root, '..', `${root.split('/').pop()}-locks`) });
    const note = await saveNote(backend, { kind: 'failure-incident', slug: 'deploy-broke', body: RAW }, { now: NOW });
    const text = await readFile(join(root, ...note.locator.parts), 'utf8');
    expect(text.endsWith(`\n\n${SCRUBBED}\n`)).toBe(true);
    for (const secret of ['jane.doe@example.com', '555-123-4567', '/Users/jane', 'sk-abcdef', 'ghp_', 'AKIA'])
      expect(text).not.toContain(secret);
    expect(note.fields.fingerprint).toBe(noteFingerprint(SCRUBBED));
    expect(note.fields.fingerprint).not.toBe(noteFingerprint(RAW));
  });

  it('other kinds are written verbatim', () => {
    const note = buildNote({ kind: 'fix', slug: 'x', body: RAW }, { now: NOW });
    expect(note.content).toContain('jane.doe@example.com');
  });

  it('a body that cannot be scrubbed is refused, and nothing is written', async () => {
    const root = await tempDir();
    const backend = new VaultBackend({ root, lockRoot: join(root, '..', `${root.split('/').pop()}-locks`) });
    const body = 'mail jane@example.com \uD800';
    await expect(saveNote(backend, { kind: 'failure-incident', slug: 'x', body }, { now: NOW })).rejects.toThrow(
      NoteValidationError,
    );
    await expect(saveNote(backend, { kind: 'failure-incident', slug: 'x', body }, { now: NOW })).rejects.toThrow(
      /failure-incident body cannot be scrubbed .*not well-formed Unicode.*nothing was written/,
    );
    expect(await backend.list(backend.resolve(''))).toEqual([]);
  });

  it('evolving a failure-incident scrubs the new body too', async () => {
    const root = await tempDir();
    const backend = new VaultBackend({ root, lockRoot: join(root, '..', `${root.split('/').pop()}-locks`) });
    const first = await saveNote(backend, { kind: 'failure-incident', slug: 'x', body: 'first' }, { now: NOW });
    const evolved = await evolveNote(
      backend,
      { locator: first.locator, body: RAW, reason: 'more detail' },
      { now: NOW },
    );
    const text = await readFile(join(root, ...evolved.note.locator.parts), 'utf8');
    expect(text).toContain(SCRUBBED);
    expect(text).not.toContain('jane.doe@example.com');
  });
});
