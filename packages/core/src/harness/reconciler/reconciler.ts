import { PlanValidationError } from '../errors.js';
import { backoffMs, DEFAULT_RETRY_POLICY } from '../inner-loop/retry.js';
import { makeObservation, type ObservationInput } from '../observations/observation.js';
import { parseProgress } from '../observations/progress-format.js';
import { findStep, parsePlan, type PlanDocument, type PlanStep } from '../plan/plan-document.js';
import { effectiveStatus } from '../plan/plan-edit.js';
import { isTerminalPlanStatus } from '../plan/step-status.js';
import {
  budgetFromMeta,
  budgetTripped,
  normalizeBudget,
  usageFromLog,
  type BudgetLimit,
  type PlanBudget,
} from './budget.js';
import { claimantLiveness, currentClaimant, formatClaimant, parseClaimant, type Claimant } from './claimant.js';
import { promotablePending, type PlanTerminal } from './core.js';
import type { StepDispatcher, StepOutcome } from './dispatcher.js';
import { mutatePlan, stepViews } from './plan-mutation.js';
import { planObservationId, type PlanFiles } from './plan-files.js';
import { recordOutcome, releaseInterrupted } from './record.js';
import { claimUnderLease, nextExpiryMs, StepGuard, stillRunningUnder, takeOverExpired } from './lease-claims.js';
import type { StepLease } from '../../seam/step-leases.js';
import { contentHash } from '../../write-protocol/content-hash.js';

export const DEFAULT_MAX_CONCURRENT = 4;
/** Tries to record a finished step before giving up (its claim then waits for this process to end). */
export const RECORD_ATTEMPTS = 5;
/** A step whose claimant died is retried while its attempt stays below this (then it fails). */
export const DEFAULT_MAX_RECOVERIES = 3;

export interface ReconcilerOptions {
  readonly files: PlanFiles;
  readonly dispatcher: StepDispatcher;
  /** Steps of this plan running at once in this process (default 4; non-positive → 4). */
  readonly maxConcurrent?: number;
  /** Overrides the plan's frontmatter budget (all-zero → the default). */
  readonly budget?: Partial<PlanBudget>;
  readonly claimant?: Claimant;
  readonly now?: () => number;
  readonly maxRecoveries?: number;
  /** Diagnostics (one line per event); default silent. */
  readonly log?: (line: string) => void;
}

export interface TickReport {
  readonly skipped?: 'no-plan' | 'terminal';
  /** The plan's terminal status after the tick ('' while it can still move). */
  readonly terminal: PlanTerminal;
  readonly promoted: readonly string[];
  readonly recovered: readonly string[];
  /** Steps this tick claimed, in claim order. */
  readonly claimed: readonly string[];
  readonly halted?: BudgetLimit;
  /** With step leases: when the first lease another process holds may expire (a takeover may then be due). */
  readonly leaseWaitMs?: number;
}

/** The step's idempotency key when the plan does not carry one: 16 bytes of sha256 over `plan:<name>|<id>`, hex. */
export function defaultStepKey(planName: string, stepId: string): string {
  return contentHash(`plan:${planName}|${stepId}`).slice(0, 32);
}

/**
 * The stateless reconciler of one plan. Each `tick` re-reads everything: recovers steps whose claimant is
 * gone, promotes, checks the budget derived from the log, claims ready steps by CAS (exactly one claimant
 * wins), dispatches them (at most `maxConcurrent` in flight), records results, and settles the plan's
 * terminal status. Ticks of one Reconciler are serialized; any number of processes may tick one plan.
 */
export class Reconciler {
  readonly files: PlanFiles;
  readonly #dispatcher: StepDispatcher;
  readonly #max: number;
  readonly #claimant: Claimant;
  readonly #actor: string;
  readonly #now: () => number;
  readonly #maxRecoveries: number;
  readonly #log: (line: string) => void;
  readonly #budget: Partial<PlanBudget> | undefined;
  readonly #inflight = new Map<string, Promise<void>>();
  readonly #abort = new AbortController();
  #serial: Promise<unknown> = Promise.resolve();
  /** Called whenever a dispatched step has been recorded (the run loop ticks again). */
  onSettled: (() => void) | undefined;

  constructor(options: ReconcilerOptions) {
    this.files = options.files;
    this.#dispatcher = options.dispatcher;
    this.#max = options.maxConcurrent && options.maxConcurrent > 0 ? options.maxConcurrent : DEFAULT_MAX_CONCURRENT;
    this.#claimant = options.claimant ?? currentClaimant();
    this.#actor = formatClaimant(this.#claimant);
    this.#now = options.now ?? Date.now;
    this.#maxRecoveries = options.maxRecoveries ?? DEFAULT_MAX_RECOVERIES;
    this.#log = options.log ?? (() => undefined);
    this.#budget = options.budget;
  }

  /** Steps this reconciler is running now. */
  get inflight(): readonly string[] {
    return [...this.#inflight.keys()];
  }

  /**
   * One tick. With `wait`, claimed steps are run to completion before it returns (a pool of
   * `maxConcurrent` workers: with 1, ready steps run strictly in plan order); without, it returns once
   * the claimed steps are launched.
   */
  tick(options: { wait?: boolean } = {}): Promise<TickReport> {
    const run = this.#serial.then(() => this.#tick(options.wait ?? false));
    this.#serial = run.catch(() => undefined);
    return run;
  }

  /** Resolves when every step this reconciler launched has been recorded. */
  async settle(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.all([...this.#inflight.values()]);
  }

  /**
   * Aborts running dispatches (their steps are released for a retry) and waits for them. A tick that is
   * claiming a step right now is waited for first: its claim is already on disk, and the step must be
   * launched (and so released) before `stop` returns, or it would stay `running` behind a live process.
   */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#serial;
    await this.settle();
  }

  async #tick(wait: boolean): Promise<TickReport> {
    const empty = { promoted: [], recovered: [], claimed: [] };
    const snap = await this.files.readPlan();
    if (!snap) return { skipped: 'no-plan', terminal: '', ...empty };
    const first = parsePlan(snap.text);
    if (isTerminalPlanStatus(first.meta.status))
      return { skipped: 'terminal', terminal: first.meta.status as PlanTerminal, ...empty };
    const errors = first.problems.filter((p) => p.severity === 'error').map((p) => p.message);
    if (errors.length > 0) throw new PlanValidationError(this.files.planLabel, errors);

    const { recovered, leaseWaitMs } = await this.#recover();
    const wake = leaseWaitMs === undefined ? {} : { leaseWaitMs };
    const promoted = await this.#promote();
    // A plan that is already settled is closed before any budget check (a finished plan never trips).
    const settled = await this.#mutate(() => ({ settle: true }));
    if (settled?.planStatus)
      return { terminal: settled.planStatus as PlanTerminal, promoted, recovered, claimed: [], ...wake };

    const { budget } = budgetFromMeta(settled?.doc.meta.budget);
    const limits = this.#budget ? normalizeBudget(this.#budget) : budget;
    const usage = usageFromLog(parseProgress(await this.files.readProgress()), this.#now());
    const tripped = budgetTripped(limits, usage);
    if (tripped) {
      await this.#halt(tripped, usage);
      return { terminal: 'failed', promoted, recovered, claimed: [], halted: tripped, ...wake };
    }
    const claimed: string[] = [];
    const doc = settled?.doc ?? first;
    const queue = doc.steps
      .filter((s) => effectiveStatus(doc, s) === 'ready' && !this.#inflight.has(s.id))
      .map((s) => s.id);
    let dispatched = usage.stepsDispatched;
    const roomInBudget = () => limits.maxSteps <= 0 || dispatched < limits.maxSteps;
    const remaining = {
      toolCalls: limits.maxToolCalls > 0 ? Math.max(1, limits.maxToolCalls - usage.toolCalls) : 0,
      tokens: limits.maxTokens > 0 ? Math.max(1, limits.maxTokens - usage.tokens) : 0,
    };
    // Claims one step; resolves (once claimed, not once run) to a holder of its completion.
    const claimNext = async (): Promise<{ readonly done: Promise<void> } | undefined> => {
      const id = queue.shift()!;
      const launched = await this.#claimAndLaunch(id, remaining);
      if (launched) {
        claimed.push(id);
        dispatched++;
      }
      return launched;
    };
    if (wait) {
      const workers = Math.max(1, this.#max - this.#inflight.size);
      await Promise.all(
        Array.from({ length: workers }, async () => {
          while (queue.length > 0 && roomInBudget() && !this.#abort.signal.aborted) await (await claimNext())?.done;
        }),
      );
    } else {
      while (queue.length > 0 && this.#inflight.size < this.#max && roomInBudget() && !this.#abort.signal.aborted)
        await claimNext();
    }
    const final = await this.#mutate(() => ({ settle: true }));
    const status = final?.planStatus ?? (isTerminalPlanStatus(final?.doc.meta.status) ? final!.doc.meta.status : '');
    return { terminal: (status ?? '') as PlanTerminal, promoted, recovered, claimed, ...wake };
  }

  /**
   * Steps whose claimant is gone go back to ready (attempt bumped) or fail after `maxRecoveries`. With
   * step leases, a leased step is judged by its lease alone (expired → taken over, from any machine);
   * a running step without a lease (claimed by hand, or before leases) by its claimant's process.
   */
  async #recover(): Promise<{ recovered: string[]; leaseWaitMs?: number }> {
    const leases = this.files.leases;
    const listed = leases ? await leases.list() : undefined;
    const recovered: string[] = [];
    await this.#mutate((doc) => {
      recovered.length = 0;
      const changes = doc.steps.flatMap((step) => {
        if (step.stored !== 'running' || this.#inflight.has(step.id) || listed?.has(step.id)) return [];
        const claimant = parseClaimant(step.agent);
        if (!claimant || claimantLiveness(claimant, step.started, this.#claimant) !== 'gone') return [];
        recovered.push(step.id);
        return [this.#recovery(step, 'claimant_gone', 'is gone (its process ended mid-step)')];
      });
      return changes.length > 0
        ? { transitions: changes.flatMap((c) => c.transitions), before: changes.flatMap((c) => c.before) }
        : undefined;
    });
    if (leases && listed) {
      const ttl = `${leases.ttlMs / 1000} s`;
      const taken = await takeOverExpired(
        leases,
        listed,
        (id) => this.#inflight.has(id),
        (id, lease) =>
          this.#mutate((doc) =>
            stillRunningUnder(doc, id, lease)
              ? this.#recovery(findStep(doc, id), 'lease_expired', `let its lease expire (no heartbeat for ${ttl})`)
              : undefined,
          ),
      );
      recovered.push(...taken);
    }
    for (const id of recovered) this.#log(`recovered step ${id}: its claimant is gone`);
    const wait = listed ? nextExpiryMs(listed, (id) => this.#inflight.has(id)) : undefined;
    return { recovered, ...(wait === undefined ? {} : { leaseWaitMs: wait }) };
  }

  /** Moving a step whose claimant is gone back to ready (attempt + 1), or to failed once it is out of retries. */
  #recovery(step: PlanStep, reason: 'claimant_gone' | 'lease_expired', what: string) {
    const retry = step.attempt < this.#maxRecoveries;
    const before = this.#obs({
      kind: 'error',
      step: step.id,
      attempt: step.attempt,
      text: `claimant ${step.agent} of step "${step.id}" ${what}${retry ? `; retrying as attempt ${step.attempt + 1}` : `; giving up after ${step.attempt + 1} attempts`}`,
      data: { claimant: step.agent, reason },
    });
    const transitions = [
      { step: step.id, to: 'failed' as const },
      ...(retry ? [{ step: step.id, to: 'ready' as const, attempt: step.attempt + 1 }] : []),
    ];
    return { transitions, before: [before] };
  }

  async #promote(): Promise<string[]> {
    const promoted: string[] = [];
    await this.#mutate((doc) => {
      const ids = promotablePending(stepViews(doc))
        .filter((v) => v.status === 'blocked')
        .map((v) => v.id);
      promoted.splice(0, promoted.length, ...ids);
      return ids.length > 0 ? { transitions: ids.map((id) => ({ step: id, to: 'ready' as const })) } : undefined;
    });
    return promoted;
  }

  async #halt(limit: BudgetLimit, usage: ReturnType<typeof usageFromLog>): Promise<void> {
    this.#log(`plan ${this.files.name} halted: budget "${limit}" exceeded`);
    await this.#mutate((doc) =>
      isTerminalPlanStatus(doc.meta.status)
        ? undefined
        : {
            before: [
              this.#obs({
                kind: 'decision',
                step: planObservationId(this.files),
                text: `plan halted: budget "${limit}" exceeded`,
                data: {
                  choice: 'halt_plan',
                  rationale: 'budget exceeded',
                  limit,
                  steps_dispatched: usage.stepsDispatched,
                  tool_calls_used: usage.toolCalls,
                  tokens_used: usage.tokens,
                  elapsed_ms: usage.elapsedMs,
                },
              }),
            ],
            planStatus: { status: 'failed', reason: `budget exceeded: ${limit}` },
          },
    );
  }

  /** Claims one step (ready → running by CAS); on a win, launches it and returns its completion (wrapped: an async function would flatten it). */
  async #claimAndLaunch(
    id: string,
    remaining: { toolCalls: number; tokens: number },
  ): Promise<{ readonly done: Promise<void> } | undefined> {
    const claim = () =>
      this.#mutate((doc) => {
        const step = doc.steps.find((s) => s.id === id);
        if (!step || effectiveStatus(doc, step) !== 'ready') return undefined;
        const fields = {
          key: step.key ?? defaultStepKey(this.files.name, step.id),
          agent: this.#actor,
          started: new Date(this.#now()).toISOString(),
        };
        return { transitions: [{ step: id, to: 'running' as const, fields }] };
      });
    const leases = this.files.leases;
    const leased = leases ? await claimUnderLease(leases, id, this.#actor, claim) : undefined;
    const result = leases ? leased?.result : await claim();
    if (!result || result.applied.length === 0) return undefined;
    const claimedDoc = result.doc;
    const claimedStep = findStep(claimedDoc, id);
    this.#log(`claimed step ${id} (attempt ${claimedStep.attempt})${leased ? ' under a lease' : ''}`);
    const run = this.#run(claimedDoc, claimedStep, remaining, leased?.lease).finally(() => {
      this.#inflight.delete(id);
      this.onSettled?.();
    });
    this.#inflight.set(id, run);
    return { done: run };
  }

  async #run(
    doc: PlanDocument,
    step: PlanStep,
    remaining: { toolCalls: number; tokens: number },
    lease?: StepLease,
  ): Promise<void> {
    const record = async (entry: Omit<ObservationInput, 'step' | 'attempt' | 'actor'>) => {
      await this.files.commit({ observations: [this.#obs({ ...entry, step: step.id, attempt: step.attempt })] });
    };
    const guard = new StepGuard(this.#abort.signal, this.files.leases, lease, this.#log);
    let outcome: StepOutcome;
    try {
      outcome = await this.#dispatcher.dispatch({
        plan: doc,
        step,
        planName: this.files.name,
        stepKey: step.key!,
        attempt: step.attempt,
        remaining,
        record,
        signal: guard.signal,
      });
    } catch (error) {
      outcome = { status: 'failed', summary: (error as Error).message ?? String(error), toolCalls: 0, tokens: 0 };
    } finally {
      guard.end();
    }
    const write = (lost: string | undefined) =>
      lost !== undefined
        ? recordOutcome(this.files, this.#actor, step, outcome, this.#now, lost)
        : this.#abort.signal.aborted
          ? releaseInterrupted(this.files, this.#actor, step, outcome, this.#now)
          : recordOutcome(this.files, this.#actor, step, outcome, this.#now);
    // Recording must not be lost to a passing lock timeout: the step would stay claimed by a live process.
    for (let attempt = 1; ; attempt++) {
      try {
        await guard.record(write);
        const how = guard.lost !== undefined ? 'discarded' : this.#abort.signal.aborted ? 'released' : outcome.status;
        this.#log(`step ${step.id} ${how}`);
        return;
      } catch (error) {
        this.#log(
          `could not record step ${step.id} (attempt ${attempt} of ${RECORD_ATTEMPTS}): ${(error as Error).message}`,
        );
        if (attempt >= RECORD_ATTEMPTS) return;
        await new Promise((r) => setTimeout(r, backoffMs(DEFAULT_RETRY_POLICY, attempt + 1)));
      }
    }
  }

  #mutate(decide: Parameters<typeof mutatePlan>[2]) {
    return mutatePlan(this.files, this.#actor, decide, this.#now);
  }

  #obs(input: Omit<ObservationInput, 'actor' | 'time'>) {
    return makeObservation({ ...input, actor: this.#actor, time: new Date(this.#now()) });
  }
}
