import { type Document, LineCounter, parseDocument } from 'yaml';
import { AppError } from './app-error.js';

export interface ParsedYaml {
  readonly doc: Document;
  /** Turns a node's offset into its line, for messages that name where a field is. */
  readonly lineCounter: LineCounter;
}

/**
 * Parses a YAML file the contract and the scenario files are both written in. A syntax error throws
 * AppError(errorCode) as `Failed to read <file>: line <n>, column <m>: <problem>`.
 */
export function parseYamlDocument(file: string, text: string, errorCode: string, intAsBigInt = false): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, intAsBigInt, prettyErrors: false });
  const [first] = doc.errors;
  if (first) {
    const { line, col } = lineCounter.linePos(first.pos[0]);
    throw new AppError(errorCode, `Failed to read ${file}: line ${line}, column ${col}: ${first.message.split('\n')[0]}`);
  }
  return { doc, lineCounter };
}
