import { StorageBackend } from '../seam/backend.js';
import { AgentMError, InvalidLocatorError, NotFoundError } from '../seam/errors.js';
import { Locator } from '../seam/locator.js';
import { BackendRegistry } from '../seam/registry.js';
import { Tier, type TierLayout } from '../seam/tiers.js';
import { contentHash } from '../write-protocol/content-hash.js';
import { ConcurrentModificationError } from '../write-protocol/errors.js';

/** A broken rule of the seam contract, named. */
export class ConformanceFailure extends AgentMError {
  readonly check: string;
  constructor(check: string, message: string) {
    super(`conformance check '${check}' failed: ${message}`, { code: 'ECONFORMANCE' });
    this.check = check;
  }
}

export type BackendFactory = () => StorageBackend | Promise<StorageBackend>;

export interface ConformanceCheck {
  readonly name: string;
  run(make: BackendFactory): Promise<void>;
}

export interface ConformanceOptions {
  /** Run the derived-rebuild check against this layout (the backend must offer derived maintenance). */
  readonly derivedLayout?: TierLayout;
}

export interface ConformanceReport {
  readonly universal: string[];
  readonly derived: 'passed' | 'skipped';
}

/** Text samples that must survive a round trip byte for byte. */
export const ROUND_TRIP_SAMPLES: readonly string[] = [
  'unix line one\nunix line two\n',
  'windows line one\r\nwindows line two\r\n',
  'mixed\r\nlf\nbare-cr\rtail',
  'no trailing newline',
  'non-ascii café ναί 🦗\r\nsecond\r\n',
];

function fail(check: string, message: string): never {
  throw new ConformanceFailure(check, message);
}

function keysOf(locators: readonly Locator[]): string[] {
  return locators.map((l) => l.key).sort();
}

async function expectThrow(
  check: string,
  what: string,
  action: () => unknown,
  type: new (...args: never[]) => Error,
): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (error instanceof type) return;
    fail(
      check,
      `${what} threw ${(error as Error)?.name ?? typeof error} instead of ${type.name}: ${(error as Error)?.message}`,
    );
  }
  fail(check, `${what} did not throw ${type.name}`);
}

const check = (name: string, body: (backend: StorageBackend, name: string) => Promise<void>): ConformanceCheck => ({
  name,
  async run(make) {
    await body(await make(), name);
  },
});

/** The universal checks, in order. Every backend must pass all of them. */
export const UNIVERSAL_CHECKS: readonly ConformanceCheck[] = [
  check('resolve_and_locator', async (b, name) => {
    const root = b.resolve();
    if (!(root instanceof Locator) || root.key !== '')
      fail(name, `resolve() must be the root locator, got ${String(root)}`);
    const abc = b.resolve('a', 'b', 'c');
    if (!(abc instanceof Locator) || abc.key !== 'a/b/c')
      fail(name, `resolve('a','b','c') must have key a/b/c, got ${String(abc)}`);
  }),
  check('write_read_round_trip', async (b, name) => {
    const loc = b.resolve('notes', 'hello.md');
    const text = '# Hello\n\nbody line\n';
    const written = await b.write(loc, text);
    if (!written.equals(loc)) fail(name, `write returned ${String(written)}, not the locator passed`);
    const back = await b.read(loc);
    if (back !== text) fail(name, `read returned ${JSON.stringify(back)}, wrote ${JSON.stringify(text)}`);
  }),
  check('lf_exact_round_trip', async (b, name) => {
    for (const [i, sample] of ROUND_TRIP_SAMPLES.entries()) {
      const loc = b.resolve('roundtrip', `sample${i}.md`);
      await b.write(loc, sample);
      const back = await b.read(loc);
      if (back !== sample || !Buffer.from(back, 'utf8').equals(Buffer.from(sample, 'utf8'))) {
        fail(
          name,
          `sample ${i} is not LF-exact after a round trip: wrote ${JSON.stringify(sample)}, read ${JSON.stringify(back)}`,
        );
      }
    }
  }),
  check('exists_flips', async (b, name) => {
    const loc = b.resolve('maybe.md');
    if (await b.exists(loc)) fail(name, 'maybe.md exists before any write');
    await b.write(loc, 'now here\n');
    if (!(await b.exists(loc))) fail(name, 'maybe.md does not exist after a write');
  }),
  check('info', async (b, name) => {
    const doc = b.resolve('doc.md');
    await b.write(doc, 'café\r\nsecond\r\n');
    const file = await b.info(doc);
    if (file.isDir) fail(name, 'a file reports isDir');
    if (file.size !== 15) fail(name, `size must be the UTF-8 byte length 15, got ${file.size}`);
    if (typeof file.mtimeMs !== 'number' || !Number.isFinite(file.mtimeMs)) fail(name, 'mtimeMs is not a number');
    if (!file.locator.equals(doc)) fail(name, 'info carries another locator');
    const dir = await b.mkdir(b.resolve('adir'));
    const dirInfo = await b.info(dir);
    if (!dirInfo.isDir || dirInfo.size !== 0)
      fail(name, `a directory must report isDir and size 0, got ${JSON.stringify(dirInfo)}`);
    await expectThrow(name, 'info of an absent locator', () => b.info(b.resolve('nope', 'missing.md')), NotFoundError);
  }),
  check('read_absent_not_found', async (b, name) => {
    await expectThrow(name, 'read of an absent locator', () => b.read(b.resolve('nope', 'missing.md')), NotFoundError);
  }),
  check('mkdir_idempotent', async (b, name) => {
    const loc = b.resolve('x', 'y');
    await b.mkdir(loc);
    await b.mkdir(loc);
    if (!(await b.exists(loc))) fail(name, 'x/y does not exist after mkdir');
    if (!(await b.info(loc)).isDir) fail(name, 'x/y is not a directory after mkdir');
  }),
  check('list_children', async (b, name) => {
    await b.write(b.resolve('box', 'a.md'), 'a\n');
    await b.write(b.resolve('box', 'b.md'), 'b\n');
    await b.mkdir(b.resolve('box', 'sub'));
    await b.write(b.resolve('box', 'sub', 'deep.md'), 'deep\n');
    const listed = await b.list(b.resolve('box'));
    if (!listed.every((l) => l instanceof Locator)) fail(name, 'list must return Locators');
    const keys = keysOf(listed);
    const expected = ['box/a.md', 'box/b.md', 'box/sub'];
    if (JSON.stringify(keys) !== JSON.stringify(expected))
      fail(name, `list(box) gave ${JSON.stringify(keys)}, expected ${JSON.stringify(expected)}`);
  }),
  check('list_on_absent', async (b, name) => {
    for (const [what, loc] of [
      ['an absent locator', b.resolve('never', 'created')],
      ['a file', b.resolve('file.md')],
    ] as const) {
      if (what === 'a file') await b.write(loc, 'x\n');
      let listed: Locator[];
      try {
        listed = await b.list(loc);
      } catch (error) {
        fail(name, `list of ${what} must not raise, raised ${(error as Error).message}`);
      }
      if (listed.length !== 0) fail(name, `list of ${what} must be [], got ${JSON.stringify(keysOf(listed))}`);
    }
  }),
  check('invalid_locator_rejected', async (b, name) => {
    await expectThrow(name, "resolve('..')", () => b.resolve('..'), InvalidLocatorError);
    await expectThrow(name, "resolve('a','..','b')", () => b.resolve('a', '..', 'b'), InvalidLocatorError);
    await expectThrow(name, 'a backslash segment', () => b.resolve('..\\..\\x'), InvalidLocatorError);
    await expectThrow(name, 'a NUL byte', () => b.resolve('a\0b'), InvalidLocatorError);
  }),
  check('cas_expectations', async (b, name) => {
    const loc = b.resolve('cas', 'note.md');
    await b.write(loc, 'v1\n', { expectHash: null });
    await expectThrow(
      name,
      'a write expecting absence onto an existing file',
      () => b.write(loc, 'other\n', { expectHash: null }),
      ConcurrentModificationError,
    );
    await expectThrow(
      name,
      'a write with a stale hash',
      () => b.write(loc, 'other\n', { expectHash: contentHash('stale\n') }),
      ConcurrentModificationError,
    );
    if ((await b.read(loc)) !== 'v1\n') fail(name, 'a refused write changed the file');
    await b.write(loc, 'v2\n', { expectHash: contentHash('v1\n') });
    if ((await b.read(loc)) !== 'v2\n') fail(name, 'a write with the right hash did not land');
  }),
  check('registry_routing', async (b, name) => {
    const registry = new BackendRegistry();
    const cls = b.constructor as typeof StorageBackend;
    registry.register('conformance-probe', cls as never);
    if (registry.get('conformance-probe') !== cls)
      fail(name, 'a fresh registry does not route the protocol to the backend class');
    if (registry.get('not-registered') !== undefined) fail(name, 'a registry miss must be undefined');
  }),
];

async function checkDerived(make: BackendFactory, layout: TierLayout): Promise<void> {
  const name = 'derived_rebuildable';
  const b = await make();
  const maintenance =
    b.derivedMaintenance ?? fail(name, 'a derived layout was given but the backend offers no derivedMaintenance');
  const seeds: Record<string, string> = {
    'alpha.md': 'alpha source\n',
    'beta.md': 'beta source\r\n',
    'gamma.md': 'café 🦗\r\n',
  };
  for (const [file, text] of Object.entries(seeds)) await b.write(layout.source.child(file), text);
  const derivedRoot = layout.localIndex;
  if ((await b.list(derivedRoot)).length !== 0) fail(name, 'the derived root is not empty before a rebuild');
  const verify = async (expected: Record<string, string>, when: string) => {
    for (const [file, text] of Object.entries(expected)) {
      const loc = derivedRoot.child(file);
      if (!(await b.exists(loc))) fail(name, `derived entry ${loc.key} is missing ${when}`);
      if ((await b.read(loc)) !== text)
        fail(name, `derived entry ${loc.key} is not byte-identical to its source ${when}`);
    }
  };
  await maintenance.reindex(Tier.LOCAL_INDEX);
  await verify(seeds, 'after a rebuild');
  const revised = Object.fromEntries(Object.entries(seeds).map(([f, t]) => [f, `${t} (rev2)`]));
  for (const [file, text] of Object.entries(revised)) await b.write(layout.source.child(file), text);
  await maintenance.reindex(Tier.LOCAL_INDEX);
  await verify(revised, 'after a source change');
}

/**
 * Runs every universal check (each against a fresh backend from `makeBackend`) and, when a layout is
 * given, the derived-rebuild check. Throws `ConformanceFailure` naming the first broken rule.
 */
export async function runConformance(
  makeBackend: BackendFactory,
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const universal: string[] = [];
  for (const c of UNIVERSAL_CHECKS) {
    await c.run(makeBackend);
    universal.push(c.name);
  }
  if (options.derivedLayout) await checkDerived(makeBackend, options.derivedLayout);
  return { universal, derived: options.derivedLayout ? 'passed' : 'skipped' };
}
