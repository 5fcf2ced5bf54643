// The integration-test entry that --extensionTestsPath points at (the @vscode/test-electron shape): a
// module exporting run(). Runs every *.test.js beside it with mocha (tdd), in file-name order, so the
// activation suite runs while the extension is still inactive.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  // agentm's config prefix is the test's own: a developer's ~/.claude/.agentm-config.json never leaks in.
  process.env['AGENTM_INSTALL_PREFIX'] ??= mkdtempSync(join(tmpdir(), 'agentm-itest-prefix-'));
  // AGENTM_ITEST_GREP=<regexp> runs only the matching tests (while working on one).
  const grep = process.env['AGENTM_ITEST_GREP'];
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    timeout: 30_000,
    reporter: 'spec',
    ...(grep ? { grep: new RegExp(grep) } : {}),
  });
  for (const file of readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort())
    mocha.addFile(join(__dirname, file));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => {
      console.log(`[agentm-itest] ${failures} failed`);
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
  });
}
