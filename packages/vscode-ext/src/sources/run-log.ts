import * as vscode from 'vscode';
import type { RunStepEvent } from '@agentm/core/harness';

/** Characters of the latest run kept for the inspect command (the channel keeps everything). */
const TAIL_CHARS = 20_000;

/**
 * The live view of plan runs in this window: the "AgentM run" output channel, shown when a run starts
 * (without taking focus), with each step's start (and its command), the command's output as it comes,
 * each step's end, and the run's end — or why it was refused before anything was claimed.
 */
export class RunLog implements vscode.Disposable {
  readonly #channel = vscode.window.createOutputChannel('AgentM run');
  #tail = '';

  /** What the latest run wrote (its last characters), for the inspect command the tests call. */
  get tail(): string {
    return this.#tail;
  }

  start(plan: string, title: string): void {
    this.#tail = '';
    this.#write(`── run ${title === plan ? `'${plan}'` : `'${title}' (${plan})`} · ${new Date().toISOString()}\n`);
    this.#channel.show(true);
  }

  step(event: RunStepEvent): void {
    if (event.kind === 'start')
      this.#write(`▶ ${event.step}: ${event.title}${event.command ? `\n$ ${event.command}` : ''}\n`);
    else
      this.#write(
        `${event.status === 'done' ? '✓' : '✗'} ${event.step} ${event.status} in ${(event.durationMs / 1000).toFixed(1)} s` +
          `${event.status === 'done' ? '' : `: ${event.summary}`}\n`,
      );
  }

  /** A command's output, as it comes. */
  output(text: string): void {
    this.#write(text);
  }

  end(status: string): void {
    this.#write(`── ${status}\n`);
  }

  /** Runs `work`; a refusal (pre-flight, consent) or failure is written to the log, then rethrown. */
  async refusals<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.#write(`── not run: ${error instanceof Error ? error.message : String(error)}\n`);
      throw error;
    }
  }

  #write(text: string): void {
    this.#channel.append(text);
    this.#tail = (this.#tail + text).slice(-TAIL_CHARS);
  }

  dispose(): void {
    this.#channel.dispose();
  }
}
