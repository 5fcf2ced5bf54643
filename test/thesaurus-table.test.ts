import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(REPO, 'scripts', 'thesaurus', 'build-thesaurus.mjs');

describe('the thesaurus table', () => {
  // The table is keyed by the analyzer's terms: a stemmer or stop-word change that is not followed by
  // a rebuilt table would leave words unable to find their synonyms, silently.
  it('is what WordNet, the hand-written list and the current analyzer give (build-thesaurus.mjs --check)', () => {
    const run = spawnSync(process.execPath, [SCRIPT, '--check'], { cwd: REPO, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
