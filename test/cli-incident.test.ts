import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { noteFingerprint } from '@agentm/core/memory';
import { runAgentm } from './helpers/cli.js';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';

describe('agentm save failure-incident (black box)', { timeout: 60_000 }, () => {
  it('writes the report scrubbed of e-mails, home paths, keys and phone numbers, fingerprinted after the scrub', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const body =
      'bob@corp.example hit it in /home/bob/work/app.ts with key glpat-abcdefghij0123456789, call (555) 987-6543\n';
    const saved = await runAgentm(['save', 'failure-incident', 'deploy-broke', '--body-file', '-'], {
      home: w.home,
      stdin: body,
    });
    expect(saved.code, saved.stderr).toBe(0);
    const text = await readFile(saved.stdout.trim(), 'utf8');
    const scrubbed = '[REDACTED-EMAIL] hit it in [REDACTED-PATH] with key [REDACTED-API-KEY], call [REDACTED-PHONE]';
    expect(text).toContain(`\n\n${scrubbed}\n`);
    expect(text).toContain(`fingerprint: ${noteFingerprint(scrubbed)}`);
    for (const personal of ['bob@corp', '/home/bob', 'glpat-', '987-6543']) expect(text).not.toContain(personal);
  });
});
