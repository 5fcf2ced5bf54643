import fc from 'fast-check';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { splitCommand } from '../../src/harness/command-exec/shell-words.js';
import {
  allowPatternMatches,
  ApprovalsFileError,
  emptyApprovals,
  isApproved,
  parseApprovals,
  serializeApprovals,
  withAllowPattern,
  withApproval,
  withoutAllowPattern,
  withoutApproval,
} from '../../src/harness/command-exec/approvals.js';
import { approvalsFilePath, readApprovals, repoKey } from '../../src/harness/command-exec/approvals-file.js';
import {
  buildCommandEnv,
  EnvAllowConfigError,
  envAllowFromConfig,
} from '../../src/harness/command-exec/command-env.js';
import { createCommandGate, type ApprovalPrompt } from '../../src/harness/command-exec/command-gate.js';
import { commandDigest, formatArgv } from '../../src/harness/command-exec/command-text.js';
import { commandsToApprove } from '../../src/harness/command-exec/plan-commands.js';
import { decideCommandTrust } from '../../src/harness/command-exec/trust-decision.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';

const AT = new Date('2026-05-01T00:00:00Z');
const REPO = '/work/repo';
const NPM_TEST = ['npm', 'test'];

describe('the trust decision (pure)', () => {
  const approved = withApproval(emptyApprovals(), REPO, NPM_TEST, AT);
  const allowing = withAllowPattern(emptyApprovals(), REPO, 'make *');
  it.each<[string, Parameters<typeof decideCommandTrust>[0], string, string?]>([
    [
      'approved in this repo',
      { argv: NPM_TEST, repo: REPO, approvals: approved, yes: false, canAsk: false },
      'run',
      'approved',
    ],
    [
      'approved, --yes too',
      { argv: NPM_TEST, repo: REPO, approvals: approved, yes: true, canAsk: true },
      'run',
      'approved',
    ],
    [
      'approved in another repo',
      { argv: NPM_TEST, repo: '/other', approvals: approved, yes: false, canAsk: false },
      'refuse',
    ],
    [
      'another command',
      { argv: ['npm', 'publish'], repo: REPO, approvals: approved, yes: false, canAsk: false },
      'refuse',
    ],
    [
      'allow-listed',
      { argv: ['make', 'all'], repo: REPO, approvals: allowing, yes: false, canAsk: false },
      'run',
      'allow-list',
    ],
    [
      'not matching the allow-list',
      { argv: ['makeup'], repo: REPO, approvals: allowing, yes: false, canAsk: false },
      'refuse',
    ],
    ['--yes', { argv: ['rm', 'x'], repo: REPO, approvals: emptyApprovals(), yes: true, canAsk: false }, 'run', 'yes'],
    ['a terminal', { argv: ['rm', 'x'], repo: REPO, approvals: emptyApprovals(), yes: false, canAsk: true }, 'ask'],
    [
      'nobody to ask',
      { argv: ['rm', 'x'], repo: REPO, approvals: emptyApprovals(), yes: false, canAsk: false },
      'refuse',
    ],
    [
      'sh -c is not special',
      { argv: ['sh', '-c', 'rm x'], repo: REPO, approvals: allowing, yes: false, canAsk: false },
      'refuse',
    ],
  ])('%s → %s', (_what, question, action, basis) => {
    const decision = decideCommandTrust(question);
    expect(decision.action).toBe(action);
    if (basis) expect(decision).toMatchObject({ basis });
    if (decision.action === 'refuse') {
      expect(decision.reason).toContain('nothing ran');
      expect(decision.reason).toContain('agentm run --yes');
      expect(decision.reason).toContain(`agentm approve add -- ${formatArgv(question.argv)}`);
      expect(decision.reason).toContain('agentm approve allow');
    }
  });
});

describe('command text', () => {
  it('formatArgv reads back as the same argv through splitCommand (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (argv) => {
        fc.pre(argv[0] !== '');
        expect(splitCommand(formatArgv(argv))).toEqual(argv);
      }),
    );
  });

  it('one digest per argv: spelling does not matter, a changed argument does', () => {
    expect(commandDigest(splitCommand('npm  test'))).toBe(commandDigest(splitCommand("'npm' test")));
    expect(commandDigest(['npm', 'test'])).not.toBe(commandDigest(['npm', 'test', '--watch']));
    expect(commandDigest(['a b'])).not.toBe(commandDigest(['a', 'b']));
  });

  it.each([
    ['npm test', 'npm test', true],
    ['npm test', 'npm test --watch', false],
    ['npm run *', 'npm run build --prod', true],
    ['npm  run   *', 'npm run x', true],
    ['npm *', 'npmx test', false],
    ['*.sh', 'evil.sh', true],
    ['a.b', 'axb', false],
    ['', 'anything', false],
  ])('pattern %j matches %j: %s', (pattern, command, matches) => {
    expect(allowPatternMatches(pattern, command)).toBe(matches);
  });
});

describe('the approvals data', () => {
  it('round-trips, adds, revokes by digest prefix or command, and drops an empty repo', () => {
    let a = withApproval(emptyApprovals(), REPO, NPM_TEST, AT);
    a = withAllowPattern(a, REPO, ' make   * ');
    expect(parseApprovals(serializeApprovals(a), 'f')).toEqual(a);
    expect(a.repos[REPO]!.allow).toEqual(['make *']);
    expect(isApproved(a, REPO, NPM_TEST)).toBe(true);
    const digest = commandDigest(NPM_TEST);
    expect(withoutApproval(a, REPO, { digestPrefix: digest.slice(0, 7) }).removed).toEqual([]);
    const revoked = withoutApproval(a, REPO, { digestPrefix: digest.slice(0, 8) });
    expect(revoked.removed).toEqual(['npm test']);
    expect(withoutApproval(a, REPO, { command: 'npm test' }).removed).toEqual(['npm test']);
    const empty = withoutAllowPattern(revoked.approvals, REPO, 'make *');
    expect(empty).toEqual({ approvals: emptyApprovals(), removed: true });
  });

  it.each([
    ['not JSON', '{', /is not valid JSON/],
    ['no repos', '{"version":1}', /has no "repos" object/],
    ['a newer version', '{"version":2,"repos":{}}', /has version 2, not 1/],
    ['a malformed repo', '{"version":1,"repos":{"/r":{"approved":[]}}}', /malformed entry for "\/r"/],
    ['a malformed approval', '{"version":1,"repos":{"/r":{"approved":{"d":{}},"allow":[]}}}', /malformed approval "d"/],
    ['a non-string pattern', '{"version":1,"repos":{"/r":{"approved":{},"allow":[1]}}}', /non-string allow-list/],
  ])('refuses %s with a typed error naming the file and the fix', (_what, text, message) => {
    expect(() => parseApprovals(text, '/cfg/approvals.json')).toThrow(ApprovalsFileError);
    expect(() => parseApprovals(text, '/cfg/approvals.json')).toThrow(message);
    expect(() => parseApprovals(text, '/cfg/approvals.json')).toThrow(/approvals\.json .*; fix it or delete it/);
  });

  it('lives in the user config dir, never the vault or the repo', () => {
    expect(approvalsFilePath({ XDG_CONFIG_HOME: '/x/cfg' }, '/home/u')).toBe('/x/cfg/agentm/approvals.json');
    expect(approvalsFilePath({ XDG_CONFIG_HOME: '' }, '/home/u')).toBe('/home/u/.config/agentm/approvals.json');
  });
});

describe('the command environment (pure)', () => {
  const parent = {
    PATH: '/bin',
    HOME: '/h',
    LC_ALL: 'C',
    XDG_CACHE_HOME: '/h/.cache',
    AGENTM_LLM_API_KEY: 'k1',
    AGENTM_LLM_BASE_URL: 'http://x',
    OPENAI_API_KEY: 'k2',
    GITHUB_TOKEN: 'k3',
    AWS_SECRET_ACCESS_KEY: 'k4',
    NPM_CONFIG_REGISTRY: 'https://r',
    MY_TOKEN: 'mine',
    ODD_NAME: 'configured-key',
    RANDOM: 'r',
  };
  it.each<[string, Parameters<typeof buildCommandEnv>[1], string[]]>([
    ['the defaults', {}, ['AGENTM_LLM_BASE_URL', 'HOME', 'LC_ALL', 'PATH', 'XDG_CACHE_HOME']],
    [
      'a prefix pattern',
      { allow: ['NPM_CONFIG_*'] },
      ['AGENTM_LLM_BASE_URL', 'HOME', 'LC_ALL', 'NPM_CONFIG_REGISTRY', 'PATH', 'XDG_CACHE_HOME'],
    ],
    [
      'a pattern never lets a secret through',
      { allow: ['MY_*', 'AGENTM_*'] },
      ['AGENTM_LLM_BASE_URL', 'HOME', 'LC_ALL', 'PATH', 'XDG_CACHE_HOME'],
    ],
    [
      'an exact name does',
      { allow: ['MY_TOKEN'] },
      ['AGENTM_LLM_BASE_URL', 'HOME', 'LC_ALL', 'MY_TOKEN', 'PATH', 'XDG_CACHE_HOME'],
    ],
    [
      'a variable holding a known secret is dropped',
      { allow: ['ODD_NAME'], secrets: ['configured-key'] },
      ['AGENTM_LLM_BASE_URL', 'HOME', 'LC_ALL', 'ODD_NAME', 'PATH', 'XDG_CACHE_HOME'],
    ],
    [
      '…unless not named exactly',
      { allow: ['ODD_*'], secrets: ['configured-key'] },
      ['AGENTM_LLM_BASE_URL', 'HOME', 'LC_ALL', 'PATH', 'XDG_CACHE_HOME'],
    ],
  ])('%s', (_what, options, names) => {
    expect(Object.keys(buildCommandEnv(parent, options)).sort()).toEqual(names);
  });

  it('reads harness.env_allow, refusing anything but a list of names', () => {
    expect(envAllowFromConfig({})).toEqual([]);
    expect(envAllowFromConfig({ 'harness.env_allow': [' NPM_CONFIG_* ', 'MY_TOKEN'] })).toEqual([
      'NPM_CONFIG_*',
      'MY_TOKEN',
    ]);
    for (const bad of ['PATH', ['a b'], [1], ['*'], { a: 1 }])
      expect(() => envAllowFromConfig({ 'harness.env_allow': bad })).toThrow(EnvAllowConfigError);
  });
});

describe('the commands a run will ask about', () => {
  it('every cmd:: of a step that can still run, once each, in plan order; unsplittable ones are left to fail', () => {
    const doc = parsePlan(
      [
        '- [x] done [id:: a] [cmd:: make a]',
        '- [ ] b [id:: b] [cmd:: make  b]',
        '- [/] c [id:: c] [cmd:: make b]',
        '- [-] d [id:: d] [cmd:: make d]',
        '- [!] e [id:: e] [cmd:: make e | tee]',
        '- [ ] f [id:: f] [cmd:: make f]',
        '- [ ] g [id:: g] (cmd:: make g)',
        '',
      ].join('\n'),
    );
    expect(commandsToApprove(doc)).toEqual([
      { step: 'b', argv: ['make', 'b'] },
      { step: 'f', argv: ['make', 'f'] },
    ]);
  });
});

describe('the command gate (shell)', () => {
  it('asks once for a command several steps want, records the yes (0600), and refuses a no', async () => {
    const home = await tempDir();
    const repo = join(home, 'repo');
    await mkdir(repo);
    const file = join(home, 'cfg', 'agentm', 'approvals.json');
    const asked: ApprovalPrompt[] = [];
    const answers = [true, false];
    const gate = createCommandGate({
      projectRoot: repo,
      file,
      lockRoot: join(home, 'locks'),
      now: () => AT,
      ask: async (p) => {
        asked.push(p);
        await new Promise((r) => setTimeout(r, 20));
        return answers.shift()!;
      },
    });
    const [a, b] = await Promise.all([
      gate.check({ argv: NPM_TEST, origin: 'step "a"' }),
      gate.check({ argv: NPM_TEST, origin: 'step "b"' }),
    ]);
    expect([a, b]).toEqual([
      { allowed: true, basis: 'asked' },
      { allowed: true, basis: 'approved' },
    ]);
    expect(asked.map((p) => [p.origin, p.command, p.repo])).toEqual([['step "a"', 'npm test', repoKey(repo)]]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(isApproved(await readApprovals(file), repoKey(repo), NPM_TEST)).toBe(true);

    const no = await gate.check({ argv: ['rm', '-rf', 'x'], origin: 'run_command in step "c"' });
    expect(no).toMatchObject({ allowed: false });
    expect(!no.allowed && no.reason).toContain('was declined');
  });

  it('asks in the order the steps asked, one question at a time, whatever order the file reads finish in', async () => {
    const origins = Array.from({ length: 8 }, (_, i) => `step "s${i}"`);
    for (let round = 0; round < 5; round += 1) {
      const home = await tempDir();
      const asked: string[] = [];
      let open = 0;
      let mostOpen = 0;
      const gate = createCommandGate({
        projectRoot: home,
        file: join(home, 'approvals.json'),
        lockRoot: join(home, 'locks'),
        now: () => AT,
        ask: async (p) => {
          asked.push(p.origin);
          mostOpen = Math.max(mostOpen, ++open);
          await new Promise((r) => setImmediate(r));
          open -= 1;
          return true;
        },
      });
      const verdicts = await Promise.all(origins.map((origin, i) => gate.check({ argv: ['make', `t${i}`], origin })));
      expect(verdicts.every((v) => v.allowed)).toBe(true);
      expect(asked).toEqual(origins);
      expect(mostOpen).toBe(1);
    }
  });

  it('a corrupt approvals file refuses (naming it) rather than running or resetting', async () => {
    const home = await tempDir();
    const file = join(home, 'approvals.json');
    await writeFile(file, '{ nope');
    const gate = createCommandGate({ projectRoot: home, file, yes: true });
    const verdict = await gate.check({ argv: NPM_TEST, origin: 'step "a"' });
    expect(verdict.allowed).toBe(false);
    expect(!verdict.allowed && verdict.reason).toContain(`${file} is not valid JSON`);
    expect(await readFile(file, 'utf8')).toBe('{ nope');
  });
});
