import { redactSecrets } from '../../text/redact.js';
import type { Observation, ObservationValue } from '../observations/observation.js';
import type { PlanCommit, PlanFiles, PlanLeases } from './plan-files.js';

/** An observation with every string (its text and its data values) passed through the secret redactor. */
export function redactObservation(o: Observation, secrets: readonly string[]): Observation {
  const data: Record<string, ObservationValue> = {};
  for (const [key, value] of Object.entries(o.data))
    data[key] = typeof value === 'string' ? redactSecrets(value, secrets) : value;
  return { ...o, actor: redactSecrets(o.actor, secrets), text: redactSecrets(o.text, secrets), data };
}

/**
 * Plan files with every observation redacted before it is appended: the progress log syncs with the
 * vault and is read by trace, recall and consolidation, so nothing a command printed or a provider echoed
 * may carry a secret into it. `secrets` are the known values (configured keys); key-shaped strings go
 * too. The plan text itself is not touched (it is the person's file; the harness only rewrites status).
 */
export class RedactingPlanFiles implements PlanFiles {
  readonly name: string;
  readonly planLabel: string;
  readonly progressLabel: string;
  readonly watch?: (listener: () => void) => () => void;
  readonly leases?: PlanLeases;

  constructor(
    readonly inner: PlanFiles,
    readonly secrets: readonly string[],
  ) {
    this.name = inner.name;
    this.planLabel = inner.planLabel;
    this.progressLabel = inner.progressLabel;
    if (inner.watch) this.watch = (listener) => inner.watch!(listener);
    if (inner.leases) this.leases = inner.leases;
  }

  readPlan(): ReturnType<PlanFiles['readPlan']> {
    return this.inner.readPlan();
  }

  readProgress(): Promise<string> {
    return this.inner.readProgress();
  }

  commit(change: PlanCommit): Promise<void> {
    const observations = change.observations?.map((o) => redactObservation(o, this.secrets));
    return this.inner.commit({ ...change, ...(observations ? { observations } : {}) });
  }
}

/** `files` with every observation redacted (see `RedactingPlanFiles`). */
export function redactingPlanFiles(files: PlanFiles, secrets: readonly string[]): PlanFiles {
  return new RedactingPlanFiles(files, secrets);
}
