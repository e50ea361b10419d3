import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Answers at least this long are read after a full collection. */
export const LARGE_ANSWER_CHARS = 1024 * 1024;

// V8 grows its heap rather than collect while a process allocates fast, and reading a 10 MB answer allocates
// several times its size (decoding, redaction, exact parsing, checks): a run against a target that sends such
// answers reached 455 MB of RSS with a live set under 200 MB. A full collection before each large answer is read
// keeps the heap near what is alive; it costs milliseconds next to the hundreds that answer takes to check.
// The flag only exposes gc to a new context, for this function; it is set on the first large answer, not when the
// module is imported, so importing the runner changes nothing in the importing process.
let gc: (() => void) | undefined | null = null;

export function collectGarbage(): void {
  if (gc === null) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as (() => void) | undefined;
  }
  gc?.();
}
