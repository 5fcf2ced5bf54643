/** Resolves once everything written to `stream` so far has been handed to the operating system. */
export function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}
