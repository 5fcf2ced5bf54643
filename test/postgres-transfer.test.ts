import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresBackend } from '@agentm/core/backends';
import { AGENTM_BIN, runAgentm } from './helpers/cli.js';
import { testDatabase, type TestDatabase } from './helpers/postgres.js';
import { spawnProcess } from './helpers/processes.js';
import { spawnAgentmInPty } from './helpers/pty.js';
import { tempDir } from './helpers/temp.js';

// `agentm import --from <vault>` loads a vault's memory root into a postgres store (idempotent,
// resumable, with progress on a terminal); `agentm export --to <folder>` writes the store back as the
// vault layout, every note byte for byte, so Obsidian users can read a team's memory.

let db: TestDatabase;
const opened: PostgresBackend[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await Promise.all(opened.map((b) => b.close()));
});

const NOTES: Record<string, string> = {
  'memory/fix/crlf.md': '---\r\ntype: fix\r\n---\r\n\r\nWindows line ends\r\nkept\r\n',
  'memory/convention/café.md': '---\ntype: convention\n---\n\nnon-ASCII ναί 🦗\n',
  'memory/_always-load/who.md': '---\ntype: preference\nalways_load: true\n---\n\nThe user is Alex.\n',
  'desk/projects/demo/_harness/PLAN.md': '---\ngoal: demo\n---\n- [x] done [id:: s1]\n',
  'desk/projects/demo/_harness/progress.md': '# Progress\n',
  '_meta/repos.json': '{\n  "version": 1,\n  "repos": []\n}\n',
  'memory/fix/lone-cr.md': 'bare\rcarriage return',
  'memory/fix/note (conflicted copy 2026-01-01).md': 'a conflict copy travels too\n',
};

async function vault(extra: Record<string, string | Buffer> = {}) {
  const root = join(await tempDir(), 'Vault', 'Agent');
  for (const [key, text] of Object.entries({ ...NOTES, '.obsidian/app.json': '{}', ...extra })) {
    await mkdir(join(root, key, '..'), { recursive: true });
    await writeFile(join(root, key), text);
  }
  return root;
}

/** Every file under `root` that a store holds (no dot entries), path → bytes. */
function files(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(root, path)] = readFileSync(path).toString('base64');
    }
  };
  walk(root);
  return out;
}

async function team() {
  const home = await tempDir();
  const schema = db.freshSchema();
  await mkdir(join(home, '.claude'), { recursive: true });
  await writeFile(
    join(home, '.claude', '.agentm-config.json'),
    JSON.stringify({ 'storage.backend': 'postgres', 'postgres.schema': schema }),
  );
  const store = new PostgresBackend({ url: db.url, schema, env: db.env });
  opened.push(store);
  const agentm = async (args: string[]) => {
    const result = await runAgentm(args, { home, env: db.env });
    expect(result.code, result.stderr).toBe(0);
    return result;
  };
  return { home, schema, store, agentm };
}

const binary = Buffer.from([0xff, 0xfe, 0x00, 0x89, 0x50, 0x4e, 0x47]);

describe('agentm import and export on a postgres store', () => {
  it('import loads the vault once (a second run copies nothing); export gives the same bytes back', async () => {
    const source = await vault({ 'memory/fix/picture.png': binary });
    const t = await team();
    const first = JSON.parse((await t.agentm(['import', '--from', source, '--json'])).stdout);
    expect(first).toMatchObject({ total: 9, copied: 8, unchanged: 0, differing: [] });
    expect(first.skipped).toEqual([{ key: 'memory/fix/picture.png', reason: expect.stringMatching(/not UTF-8 text/) }]);
    const again = JSON.parse((await t.agentm(['import', '--from', source, '--json'])).stdout);
    expect(again).toMatchObject({ copied: 0, unchanged: 8 });
    expect(await t.store.read(t.store.resolve('memory', 'fix', 'crlf.md'))).toBe(NOTES['memory/fix/crlf.md']);

    const out = join(await tempDir(), 'Exported', 'Agent');
    const exported = await t.agentm(['export', '--to', out]);
    expect(exported.stdout).toBe('export: 8 file(s): 8 copied, 0 replaced, 0 already identical\n');
    const expected = files(source);
    delete expected['memory/fix/picture.png'];
    expect(files(out)).toEqual(expected);
    expect((await t.agentm(['export', '--to', out, '--json'])).stdout).toMatch(/"unchanged": 8/);
  });

  it('a resumed import copies only what is missing, and keeps (and lists) what differs in the store', async () => {
    const source = await vault();
    const t = await team();
    // An earlier import got this far before it was stopped; someone edited one note in the store since.
    await t.store.write(t.store.resolve('memory', 'fix', 'crlf.md'), NOTES['memory/fix/crlf.md']!);
    await t.store.write(t.store.resolve('_meta', 'repos.json'), '{"edited": "in the store"}\n');
    const resumed = JSON.parse((await t.agentm(['import', '--from', source, '--json'])).stdout);
    expect(resumed).toMatchObject({ total: 8, copied: 6, unchanged: 1, differing: ['_meta/repos.json'] });
    expect(await t.store.read(t.store.resolve('_meta', 'repos.json'))).toBe('{"edited": "in the store"}\n');
    const replaced = JSON.parse((await t.agentm(['import', '--from', source, '--replace', '--json'])).stdout);
    expect(replaced).toMatchObject({ replaced: 1, unchanged: 7 });
    expect(await t.store.read(t.store.resolve('_meta', 'repos.json'))).toBe(NOTES['_meta/repos.json']);
  });

  it('an import killed mid-way finishes when run again, and the store then holds exactly the vault', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 600; i++) many[`memory/fix/bulk-${String(i).padStart(4, '0')}.md`] = `note ${i}\n`;
    const source = await vault(many);
    const t = await team();
    const run = spawnProcess(AGENTM_BIN, ['import', '--from', source], {
      ...db.env,
      HOME: t.home,
      XDG_CACHE_HOME: join(t.home, '.cache'),
      AGENTM_INSTALL_PREFIX: join(t.home, '.claude'),
    });
    const count = async () => (await t.store.changeFeed.changedSince(undefined)).changes.length;
    while ((await count()) < 200 && run.child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
    run.child.kill('SIGKILL');
    await run.exited;
    await t.agentm(['import', '--from', source]);
    const out = join(await tempDir(), 'Out');
    await t.agentm(['export', '--to', out]);
    expect(files(out)).toEqual(files(source));
  }, 60_000);

  it('shows a progress bar on a terminal, and refuses a folder that is not a memory root', async () => {
    const source = await vault();
    const t = await team();
    const session = spawnAgentmInPty(['import', '--from', source], { home: t.home, env: db.env });
    const done = await session.exited;
    expect(done.code, session.output()).toBe(0);
    const screen = session.output().replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
    expect(screen).toMatch(/import copying [█░]+ \d+\/8 files/);
    const empty = await tempDir();
    const refused = await runAgentm(['import', '--from', empty], { home: t.home, env: db.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/does not look like a memory root .* <vault>\/Agent/);
  });
});
