import { describe, expect, it } from 'vitest';
import { doctorReport, worstRow } from '../../src/views/doctor-report';

const rows = [
  { check: 'storage', status: 'ok' as const, line: `storage [OK] selected backend 'vault' ${'x'.repeat(300)}` },
  { check: 'lock', status: 'warn' as const, line: 'lock [WARN] left by a writer\nthat stopped' },
  { check: 'project', status: 'fail' as const, line: 'project [FAIL] no project' },
];

describe('the doctor report', () => {
  it('has a header with the counts, then one whole line per check', () => {
    const text = doctorReport(rows, new Date(Date.UTC(2026, 10, 26, 8, 1, 2)));
    expect(text.split('\n')).toEqual([
      'AgentM doctor — 2026-11-26 08:01:02 UTC — 3 checks: 1 ok, 1 warning(s), 1 failure(s)',
      '',
      rows[0]!.line,
      'lock [WARN] left by a writer that stopped',
      'project [FAIL] no project',
      '',
    ]);
  });

  it('the worst row is the first failure, else the first warning, else the first row', () => {
    expect(worstRow(rows)?.check).toBe('project');
    expect(worstRow(rows.slice(0, 2))?.check).toBe('lock');
    expect(worstRow(rows.slice(0, 1))?.check).toBe('storage');
    expect(worstRow([])).toBeUndefined();
  });
});
