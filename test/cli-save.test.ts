import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';
import { writeFile } from 'node:fs/promises';

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

function expectedNote(
  type: string,
  group: string,
  slug: string,
  tags: string,
  fingerprint: string,
  body: string,
): string {
  const date = today();
  return `---\ntype: ${type}\nstatus: active\naltitude: artifact\ncreated: ${date}\nupdated: ${date}\ntags: [${tags}]\ngroup: ${group}\nslug: ${slug}\nfingerprint: ${fingerprint}\nalways_load: false\n---\n\n${body}`;
}

describe('agentm save (black box)', { timeout: 60_000 }, () => {
  it("writes agentm's format into the vault and prints the path", async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const result = await runAgentm(
      ['save', 'decision', 'pick-stdlib', '--group', 'desk/projects/agentm', '--tags', 'a,b', '--body-file', '-'],
      {
        home: w.home,
        stdin: 'Body line one\r\nline two\n\n\n',
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const path = join(w.memoryRoot, 'desk', 'projects', 'agentm', 'convention', 'pick-stdlib.md');
    expect(result.stdout).toBe(`${path}\n`);
    expect(await readFile(path, 'utf8')).toBe(
      expectedNote(
        'convention',
        'desk/projects/agentm',
        'pick-stdlib',
        'a, b',
        '414bbdebd606ba28278f037719343b26953e34e16953a7187d6242817d208421',
        'Body line one\r\nline two\n',
      ),
    );
  });

  it('refuses to overwrite (exit 2, how to supersede) and refuses bad arguments naming them', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    await writeFile(join(w.home, 'body.md'), 'x\n');
    expect(
      (await runAgentm(['save', 'fix', 'one', '--body-file', join(w.home, 'body.md')], { home: w.home })).code,
    ).toBe(0);
    const again = await runAgentm(['save', 'fix', 'one', '--body-file', join(w.home, 'body.md')], { home: w.home });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists at memory\/fix\/one\.md.*evolve/);
    const badKind = await runAgentm(['save', 'musing', 'x', '--body-file', '-'], { home: w.home, stdin: 'b' });
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toMatch(/Valid memory types: preference, convention, reference, workflow, fix, idea/);
    const badTag = await runAgentm(['save', 'fix', 'x', '--tags', 'ok,Bad Tag', '--body-file', '-'], {
      home: w.home,
      stdin: 'b',
    });
    expect(badTag.code).toBe(2);
    expect(badTag.stderr).toMatch(/invalid tag "Bad Tag": it must match \^\[a-z0-9-\]\+\$/);
    expect((await runAgentm(['save', 'fix', 'x'], { home: w.home })).code).toBe(2);
  });

  it('8 processes saving distinct notes at once: all 8 land, byte-exact', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const bodies = Array.from({ length: 8 }, (_, i) => `note ${i}: café ναί 🦗\r\nline ${i}\n`);
    const results = await Promise.all(
      bodies.map((body, i) =>
        runAgentm(['save', 'workflow', `note-${i}`, '--tags', `t${i}`, '--body-file', '-'], {
          home: w.home,
          stdin: body,
        }),
      ),
    );
    expect(results.map((r) => r.code)).toEqual(Array(8).fill(0));
    const dir = join(w.memoryRoot, 'memory', 'workflow');
    expect((await readdir(dir)).sort()).toEqual(bodies.map((_, i) => `note-${i}.md`).sort());
    for (const [i, body] of bodies.entries()) {
      const text = await readFile(join(dir, `note-${i}.md`), 'utf8');
      expect(text.startsWith('---\ntype: workflow\n')).toBe(true);
      expect(text).toContain(`\ntags: [t${i}]\ngroup: memory\nslug: note-${i}\n`);
      expect(text.endsWith(`---\n\n${body}`)).toBe(true);
    }
  });

  it('evolve supersedes a saved note: archive with status superseded, new note with supersedes', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const saved = await runAgentm(['save', 'convention', 'style', '--body-file', '-'], {
      home: w.home,
      stdin: 'tabs\n',
    });
    const path = saved.stdout.trim();
    const evolved = await runAgentm(['evolve', path, '--reason', 'team vote', '--body-file', '-'], {
      home: w.home,
      stdin: 'spaces\n',
    });
    expect(evolved.code, evolved.stderr).toBe(0);
    const compact = today().replace(/-/g, '');
    const archive = join(w.memoryRoot, 'memory', '_archive', 'memory', 'convention', `style.md.${compact}.md`);
    expect(evolved.stdout).toBe(`${path}\narchived ${archive}\n`);
    expect(await readFile(archive, 'utf8')).toMatch(
      /\nstatus: superseded\n[\s\S]*superseded_by: memory\/convention\/style\.md\nsuperseded_at: \d{4}-\d\d-\d\d\nsuperseded_reason: team vote\n---\n\ntabs\n$/,
    );
    expect(await readFile(path, 'utf8')).toMatch(
      new RegExp(`\\nsupersedes: memory/_archive/memory/convention/style\\.md\\.${compact}\\.md\\n---\\n\\nspaces\\n$`),
    );
    expect(
      (await runAgentm(['evolve', path, '--reason', ' ', '--body-file', '-'], { home: w.home, stdin: 'x' })).code,
    ).toBe(2);
  });
});
