import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { AppError, isAppError } from './app-error.js';
import { parseYaml } from './parse-yaml.js';

// A $ref that names a scheme (https:, http:, ftp:) or a host (//host/x) points off this machine; file: and
// plain paths stay local. A one-letter "scheme" is a drive letter (C:/schemas/pet.yaml).
const REMOTE = /^(?:\/\/|(?!file:)[a-z][a-z0-9+.-]+:)/i;

/**
 * Validates the contract and replaces every $ref by what it points at. A $ref to another file is read relative
 * to the file that holds it (`./schemas/pet.yaml`), with the same YAML reader as the contract; a $ref to the
 * network is refused, never fetched: loading stays offline and repeatable. Every failure is
 * AppError('contract_invalid') naming the contract, the file and JSON pointer where it is, and the cause.
 */
export async function resolveDocument(file: string, parsed: object): Promise<object> {
  const where = new Map<string, string>();
  // ref-parser wraps what a parser throws in its own error: the first of ours is kept to be thrown as it is.
  let ours: unknown;
  const show = (path: string) => relative(dirname(file), path) || path;
  const refuse = (cause: string): never => {
    throw new AppError('contract_invalid', `Failed to load ${file}: ${cause}`);
  };
  // Each file is scanned as it is read: a remote $ref is named where it is written, and a file that cannot be
  // read is named with the $ref that asked for it.
  const scan = (path: string, value: unknown) =>
    eachRef(value, '#', (ref, pointer) => {
      const at = `${show(path)}${pointer}`;
      if (REMOTE.test(ref))
        refuse(
          `${at}: $ref ${ref} points at the network; contracts are read offline (save it beside the contract and refer to the file)`,
        );
      const target = ref.split('#')[0] as string;
      if (target !== '') where.set(new URL(target, `file://${path}`).pathname, at);
    });
  scan(file, parsed);
  const localFile = {
    order: 1,
    canParse: true,
    parse: (info: { url: string; data: Buffer | string }) => {
      const path = info.url.startsWith('file:') ? fileURLToPath(info.url) : info.url;
      try {
        const value = parseYaml(path, info.data.toString(), 'contract_invalid').value;
        scan(path, value);
        return value;
      } catch (error) {
        ours ??= error;
        throw error;
      }
    },
  };
  try {
    return (await SwaggerParser.validate(
      file,
      withoutServerVariableDescriptions(parsed) as never,
      {
        resolve: { external: true, http: false },
        parse: { json: false, yaml: false, text: false, binary: false, localFile },
      } as never,
    )) as unknown as object;
  } catch (error) {
    if (ours !== undefined) throw ours;
    if (isAppError(error)) throw error;
    const { message, source, parentPath } = error as { message: string; source?: string; parentPath?: string };
    // swagger-parser names an API it was handed as an object "[object Object]".
    const cause = message.replaceAll('[object Object]', file).replaceAll(`${dirname(file)}/`, '');
    const cited = parentPath
      ? show(parentPath.replace(/#.*$/, '')) + parentPath.replace(/^[^#]*/, '')
      : source && where.get(source);
    return refuse(cited ? `${cited}: ${cause}` : cause);
  }
}

function eachRef(value: unknown, pointer: string, visit: (ref: string, pointer: string) => void): void {
  if (value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (key === '$ref' && typeof item === 'string') visit(item, at);
    else eachRef(item, at, visit);
  }
}

/**
 * The OpenAPI 3.1 schema that swagger-parser 12 validates with spells a server variable's `description` as
 * `descriptions` (fixed in the OAI schema of 2022-10-07), so a correct 3.1 contract that describes its variables
 * would be refused. A description changes nothing a tool does: it is left out of the loaded copy.
 */
function withoutServerVariableDescriptions(document: object): object {
  if (!String((document as { openapi?: unknown }).openapi).startsWith('3.1')) return document;
  type Holder = { servers?: { variables?: Record<string, { description?: unknown }> }[] };
  const copy = structuredClone(document) as Holder & { paths?: Record<string, Record<string, Holder>> };
  const holders: Holder[] = [copy];
  for (const item of Object.values(copy.paths ?? {})) {
    if (item && typeof item === 'object')
      holders.push(item as Holder, ...Object.values(item).filter((op) => op && typeof op === 'object'));
  }
  for (const holder of holders) {
    for (const server of Array.isArray(holder.servers) ? holder.servers : []) {
      for (const variable of Object.values(server?.variables ?? {}))
        if (variable && typeof variable === 'object') delete variable.description;
    }
  }
  return copy;
}
