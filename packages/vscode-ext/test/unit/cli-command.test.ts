import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliCommand, isPathCommand } from '../../src/lm/cli-command';

describe('how the MCP server definition runs agentm', () => {
  it("without a setting: the bundled CLI, run by the editor's Node", () => {
    expect(cliCommand('', '/ext', '/usr/bin/node')).toEqual({
      command: '/usr/bin/node',
      args: [join('/ext', 'dist', 'agentm.mjs')],
      env: { ELECTRON_RUN_AS_NODE: '1' },
      source: 'bundled',
    });
  });

  it("a script in agentm.cli.path is run by the editor's Node too", () => {
    expect(cliCommand(' /opt/agentm/dist/cli/main.js ', '/ext', '/node')).toMatchObject({
      command: '/node',
      args: ['/opt/agentm/dist/cli/main.js'],
      source: 'agentm.cli.path',
    });
  });

  it('an executable in agentm.cli.path runs as it is (a bare name is found on PATH)', () => {
    expect(cliCommand('agentm', '/ext', '/node')).toEqual({
      command: 'agentm',
      args: [],
      env: {},
      source: 'agentm.cli.path',
    });
    expect(isPathCommand('agentm')).toBe(false);
    expect(isPathCommand('/usr/local/bin/agentm')).toBe(true);
    expect(isPathCommand('bin/agentm')).toBe(true);
  });
});
