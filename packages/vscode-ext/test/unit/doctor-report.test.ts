import { describe, expect, it } from 'vitest';
import type { DoctorCheck } from '@agentm/core';
import { doctorReport } from '../../src/views/doctor-report';

const checks: DoctorCheck[] = [
  { id: 'storage', status: 'ok', message: `selected backend 'vault' ${'x'.repeat(300)}` },
  {
    id: 'temps',
    status: 'warn',
    message: '2 leftover temp file(s)',
    fix: 'remove them with: agentm doctor --fix',
    details: ['a.tmp', 'b.tmp'],
  },
  { id: 'agreement', status: 'fail', message: 'this editor keeps memory in /v', fix: 'clear agentm.vault.path' },
  { id: 'index', status: 'info', message: 'not built yet', fix: 'the first recall builds it' },
];

describe('the doctor report', () => {
  it('has a header with the counts, then each check as core words it, one whole line each', () => {
    const text = doctorReport(checks, new Date(Date.UTC(2026, 10, 26, 8, 1, 2)));
    expect(text.split('\n')).toEqual([
      'AgentM doctor — 2026-11-26 08:01:02 UTC — 4 checks: 1 ok, 1 warning(s), 1 failure(s), 1 hint(s)',
      '',
      `storage [OK] selected backend 'vault' ${'x'.repeat(300)}`,
      'temps [WARN] 2 leftover temp file(s) — remove them with: agentm doctor --fix · a.tmp · b.tmp',
      'agreement [FAIL] this editor keeps memory in /v — clear agentm.vault.path',
      'index [HINT] not built yet — the first recall builds it',
      '',
    ]);
  });
});
