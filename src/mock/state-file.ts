import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { AppError } from '../contract/app-error.js';
import type { Validator } from '../contract/compile-schema.js';
import { checkPets, readJsonFile } from './load-fixtures.js';
import type { Pet } from './pet-store.js';
import { readSession } from './session-stores.js';

/** The stores a state file holds: the default store under "", each session under its name. */
export type SavedStores = ReadonlyMap<string, readonly Pet[]>;

const VERSION = 1;

/**
 * Reads a state file written by writeStateFile. Undefined when there is none yet (the first start); a file that
 * cannot be read as one is AppError('state_invalid') naming it: it is never silently discarded, since that
 * would lose the pets it holds the next time it is written.
 */
export async function readStateFile(file: string, validatePet: Validator, maxPets: number): Promise<SavedStores | undefined> {
  const fail = (what: string) => new AppError('state_invalid', `Failed to load state file ${file}: ${what}`);
  if (!existsSync(file)) return undefined;
  const value = await readJsonFile(file, fail);
  const { version, stores } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (version !== VERSION || typeof stores !== 'object' || stores === null || Array.isArray(stores)) {
    throw fail(`not a petstore-mock state file: expected {"version":${VERSION},"stores":{"":[…pets…]}}`);
  }
  const saved = new Map<string, Pet[]>();
  for (const [name, pets] of Object.entries(stores)) {
    if (name !== '') {
      try {
        readSession(name);
      } catch {
        throw fail(`stores.${name.slice(0, 70)}: not a session name`);
      }
    }
    saved.set(name, checkPets(pets, validatePet, maxPets, (what) => fail(`stores["${name}"]: ${what}`)));
  }
  return saved;
}

/**
 * Writes every store atomically: into a temporary file beside the target, then renamed over it (rename is atomic
 * on one file system), so a crash or a full disk mid-write leaves the previous state whole. Streamed a piece at a
 * time from the stores' pre-rendered JSON, so a large store is never one string.
 */
export async function writeStateFile(file: string, stores: Iterable<[string, Iterable<string>]>): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const out = createWriteStream(temporary);
  try {
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    await write(`{"version":${VERSION},"stores":{`);
    let first = true;
    for (const [name, chunks] of stores) {
      await write(`${first ? '' : ','}${JSON.stringify(name)}:`);
      for (const chunk of chunks) await write(chunk);
      first = false;
    }
    await write('}}\n');
    out.end();
    await once(out, 'close');
    await rename(temporary, file);
  } catch (error) {
    out.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
}
