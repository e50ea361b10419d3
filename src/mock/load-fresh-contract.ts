import { copyFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AppError, isAppError } from '../contract/app-error.js';
import { type Contract, loadContract } from '../contract/load-contract.js';

let reloads = 0;

/**
 * The contract as the file holds it now. loadContract compiles each path once per process (every mock a test
 * suite starts shares it), so an edited file is read through a copy under a name of its own, beside the original
 * so that relative $refs still resolve, and the copy is removed. Each reload stays in loadContract's cache: a few
 * hundred kilobytes per edit, for a development tool.
 */
export async function loadFreshContract(file: string): Promise<Contract> {
  const copy = join(dirname(file), `.${basename(file)}.reload-${process.pid}-${++reloads}`);
  await copyFile(file, copy);
  try {
    return { ...(await loadContract(copy)), file };
  } catch (error) {
    // Its messages name the copy, by path or (a pointer in it) by name: the user edited the original.
    if (isAppError(error)) throw new AppError(error.code, error.message.replaceAll(copy, file).replaceAll(basename(copy), basename(file)));
    throw error;
  } finally {
    await rm(copy, { force: true });
  }
}
