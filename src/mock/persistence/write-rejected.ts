import { writeFile } from 'node:fs/promises';
import { stringifyJson } from '../../contract/lossless-json.js';

/** A record set aside at load: where it stood, why, and its JSON text as read. */
export interface RejectedRecord {
  /** The store it belongs to ("" the default one); undefined for fixtures, which belong to none. */
  readonly store: string | undefined;
  /** "entry 3", "line 12": how a person finds it in the file. */
  readonly position: string;
  readonly reason: string;
  /** Its JSON text, or the line as read when that is not JSON. */
  readonly record: string;
}

/**
 * Writes records that no longer fit the contract into `<file>.rejected-<time>.jsonl`, one a line, so that a file
 * the contract outgrew is a way forward (start with the valid records, mend the others and load them again)
 * rather than a dead end, and nothing is lost when the state file is written again without them. Returns the
 * line a notice says: how many, the first and why, and where they went. Throws when the side file cannot be
 * written (the caller decides whether the records would be lost).
 */
export async function writeRejected(
  file: string,
  what: string,
  rejected: readonly RejectedRecord[],
  kept: number,
): Promise<string> {
  const sideFile = `${file}.rejected-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`;
  const lines = rejected.map(
    ({ store, position, reason, record }) =>
      `{"store":${store === undefined ? 'null' : JSON.stringify(store)},"position":${JSON.stringify(position)},"reason":${JSON.stringify(reason)},"record":${record}}\n`,
  );
  await writeFile(sideFile, lines.join(''), { flag: 'wx' });
  const first = rejected[0] as RejectedRecord;
  const where = first.store ? ` of session ${JSON.stringify(first.store)}` : '';
  const count = rejected.length === 1 ? '1 record no longer fits' : `${rejected.length} records no longer fit`;
  return `${what} ${file}: ${count} the contract (the first, ${first.position}${where}: ${first.reason}); moved to ${sideFile}; started with the ${kept} valid one${kept === 1 ? '' : 's'}`;
}

/** A record set aside is kept as it was, exact digits included; one too deep to render again is named, not kept. */
export function renderRecord(record: unknown): string {
  try {
    return stringifyJson(record);
  } catch {
    return 'null';
  }
}
