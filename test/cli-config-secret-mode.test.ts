import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from './helpers/processes.js';
import { tempDir } from './helpers/temp.js';

const CLI = fileURLToPath(new URL('../packages/core/bin/agentm.js', import.meta.url));

/** `agentm <args>` with the temp-mode probe preloaded (a real process, umask 022 as most users have). */
function probedAgentm(args: string[], home: string, log: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'sh',
      [
        '-c',
        'umask 022 && exec "$0" "$@"',
        process.execPath,
        '--import',
        `${FIXTURES}temp-mode-probe.mjs`,
        CLI,
        ...args,
      ],
      {
        env: {
          PATH: process.env['PATH'],
          HOME: home,
          XDG_CACHE_HOME: join(home, '.cache'),
          AGENTM_INSTALL_PREFIX: join(home, '.claude'),
          AGENTM_PROBE_LOG: log,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the config file holds API keys', () => {
  it('its temp file is 0600 from creation: no moment where the key sits in a world-readable file', async () => {
    const home = await tempDir();
    const log = join(home, 'modes.log');
    const set = await probedAgentm(
      ['config', 'set', 'providers.chat.api_key', 'sk-probe-0123456789abcdefghij'],
      home,
      log,
    );
    expect(set.code, set.stderr).toBe(0);
    const writes = (await readFile(log, 'utf8')).trim().split('\n');
    expect(writes.length).toBeGreaterThan(0);
    expect(
      writes.every((w) => w.endsWith(' 600')),
      writes.join(', '),
    ).toBe(true);
    expect((await stat(join(home, '.claude', '.agentm-config.json'))).mode & 0o777).toBe(0o600);
  });
});
