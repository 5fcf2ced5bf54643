import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';
import { runAgentm } from './helpers/cli.js';
import { runAgentmInPty, stripAnsi } from './helpers/pty.js';

/** A vault with `count` notes in project `proj` and a progress log with a few episodes. */
async function world(count: number) {
  const w = await agentmWorld();
  await w.writeConfig(vaultConfig(w));
  const dir = join(w.memoryRoot, 'memory', 'fix');
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < count; i++)
    await writeFile(join(dir, `n${i}.md`), `---\ntype: fix\nstatus: active\n---\n\nlock timeout note ${i}\n`);
  await writeFile(
    join(w.harness, 'progress.md'),
    [
      '# Progress',
      '',
      '- 2026-01-05T10:00:00Z the vault lock timed out while the sync client held files',
      '- 2026-01-05T10:02:00Z the vault lock timed out while the sync client held files again',
      '- 2026-01-05T10:04:00Z released v1.2 to the registry',
      '',
    ].join('\n'),
  );
  return w;
}

/** A progress line as drawn: label, phase, bar, counts. */
const BAR = (label: string, phase: string, unit: string) =>
  new RegExp(`${label} ${phase} [█░]{20} \\d+/\\d+\\+? ${unit}`);

describe('progress on long work, on a terminal only (issue 15)', { timeout: 60_000 }, () => {
  it('reindex: a bar with counts on a terminal, erased at the end; nothing extra when piped', async () => {
    const w = await world(300);
    const tty = await runAgentmInPty(['reindex', '--full'], { home: w.home });
    expect(tty.code).toBe(0);
    const screen = stripAnsi(tty.stdout);
    expect(screen).toMatch(BAR('reindex', 'reading', 'files'));
    expect(screen).toContain('reindex saving…');
    expect(tty.stdout).toContain('\r\x1b[2K'); // the bar is erased before the report
    expect(screen).toMatch(/index rebuilt \(--full\): \d+ documents; read 301 file/);

    const piped = await runAgentm(['reindex', '--full'], { home: w.home });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).not.toContain('reading');
  });

  it('the first recall shows the index being built; the next one, with an index, does not', async () => {
    const w = await world(50);
    const first = await runAgentmInPty(['recall', 'lock timeout', '--limit', '1'], { home: w.home, cwd: w.repo });
    expect(first.code).toBe(0);
    expect(stripAnsi(first.stdout)).toMatch(BAR('building the memory index', 'reading', 'files'));
    const second = await runAgentmInPty(['recall', 'lock timeout', '--limit', '1'], { home: w.home, cwd: w.repo });
    expect(second.code).toBe(0);
    expect(stripAnsi(second.stdout)).not.toContain('building the memory index');
  });

  it('consolidate: the project and its clusters on a terminal; the same report, nothing else, when piped', async () => {
    const w = await world(0);
    const tty = await runAgentmInPty(['consolidate', '--dry-run'], { home: w.home, cwd: w.repo });
    expect(tty.code).toBe(0);
    expect(stripAnsi(tty.stdout)).toMatch(BAR('consolidate', 'proj distilling', 'clusters'));
    const piped = await runAgentm(['consolidate', '--dry-run'], { home: w.home, cwd: w.repo });
    expect([piped.code, piped.stderr]).toEqual([0, '']);
    expect(piped.stdout).toMatch(/^proj \(dry run\): 3 new episode\(s\) in \d+ cluster\(s\)/);
  });

  it('waiting for a model on a terminal: a spinner redrawn in place, not escape codes printed as text', async () => {
    const w = await agentmWorld();
    const server = createServer((req) => req.resume()); // accepts, never answers
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.add(server);
    await w.writeConfig({
      'providers.chat.base_url': `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      'providers.chat.model': 'slow-model',
      'providers.chat.timeout_ms': 2500,
    });
    const plan = await runAgentmInPty(['plan', 'Tidy the README'], { home: w.home, cwd: w.repo });
    expect(plan.code).toBe(0);
    expect(stripAnsi(plan.stdout)).toMatch(
      /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] agentm plan: waiting for the model slow-model at .* \(\d+ s; gives up after 2\.5 s\)/,
    );
    expect(plan.stdout).toContain('\r\x1b[2K'); // redrawn in place
    expect(plan.stdout).not.toContain('\\x1b'); // …not printed as text, as printable() would show it
    expect(plan.stdout).not.toContain('\\x0d');
  });
});

const servers = new Set<Server>();
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  servers.clear();
});
