import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/cli/exit-code.js';
import { CliError } from '../../src/cli/errors.js';
import { AgentMError, InvalidLocatorError, NotFoundError } from '../../src/seam/errors.js';
import { NoteError } from '../../src/memory/notes/errors.js';
import { StateError } from '../../src/state/errors.js';
import { ConfigError } from '../../src/config/errors.js';
import { ProjectSlugError } from '../../src/routing/errors.js';
import { ProviderConfigError } from '../../src/providers/settings.js';
import { PlanNotFoundError } from '../../src/harness/errors.js';
import { ConcurrentModificationError } from '../../src/write-protocol/errors.js';

describe('exit codes come from the error families', () => {
  it.each([
    ['a note that fails validation', new NoteError('bad slug')],
    ['a bad state file name', new StateError('bad name')],
    ['an unusable config value', new ConfigError('bad value')],
    ['a key that leaves the store', new InvalidLocatorError('../x', 'it leaves the store')],
  ])('%s is a usage error (2)', (_what, error) => {
    expect(exitCodeFor(error)).toBe(2);
  });

  it('subclasses inherit their family code, deeper in the hierarchy too', () => {
    expect(exitCodeFor(new ProjectSlugError('a/b', 'project.json'))).toBe(2);
    expect(exitCodeFor(new ProviderConfigError('half a setting'))).toBe(2);
    expect(exitCodeFor(new PlanNotFoundError('build'))).toBe(2);
  });

  it('a failed check, an absent file and anything unexpected exit 1', () => {
    expect(exitCodeFor(new ConcurrentModificationError('memory/x.md', null, 'abc'))).toBe(1);
    expect(exitCodeFor(new NotFoundError('memory/x.md'))).toBe(1);
    expect(exitCodeFor(new AgentMError('boom'))).toBe(1);
    expect(exitCodeFor(new Error('boom'))).toBe(1);
    expect(exitCodeFor('not even an error')).toBe(1);
  });

  it('a CLI error keeps the code it was given', () => {
    expect(exitCodeFor(new CliError('usage'))).toBe(2);
    expect(exitCodeFor(new CliError('nothing found', 1))).toBe(1);
  });
});
