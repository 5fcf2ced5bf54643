import { createInterface } from 'node:readline';

/**
 * One question on the terminal (the prompt on stderr, the answer from stdin). Ctrl-C answers nothing
 * and is passed on to the process (so `agentm run` stops as it would have), as is end of input.
 */
export function askOnTerminal(question: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    let answered = false;
    rl.on('SIGINT', () => {
      rl.close();
      process.kill(process.pid, 'SIGINT');
    });
    rl.on('close', () => {
      if (!answered) resolve(undefined);
    });
    rl.question(question, (answer) => {
      answered = true;
      resolve(answer);
      rl.close();
    });
  });
}
