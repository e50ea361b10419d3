import { activeMockOptions } from './active-mock-options.js';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { AppError, isAppError } from '../contract/app-error.js';
import { summarizeResources } from '../contract/resources/describe-resources.js';
import { resourceLines } from './resource-lines.js';
import { inferResources } from '../contract/resources/infer-resources.js';
import { createMockServer } from '../mock/create-mock-server.js';
import { type AllowedHosts, isAllowedHostEntry } from '../mock/boundary/allowed-hosts.js';
import type { CorsOrigins } from '../mock/boundary/cors.js';
import {
  DEFAULTS,
  DEV_API_KEY,
  defaultFixturesPath,
  defaultJournalBytes,
  isCorsOrigin,
  JOURNAL_RECORD_MIN_BYTES,
  maxJournalSize,
} from '../mock/mock-options.js';
import { MAX_DELAY_MS } from '../mock/prefer/read-preferences.js';
import { terminalText } from '../shared/terminal-text.js';
import { exposureWarnings } from './exposure-warnings.js';
import { byteSizeOption, integerOption, type OptionRow, parseOptions, renderHelp } from './option-table.js';
import { packageVersion } from './package-version.js';

const OPTIONS: readonly OptionRow[] = [
  {
    name: 'port',
    short: 'p',
    type: 'string',
    value: 'n',
    description: `port to listen on; 0 picks a free one (default ${DEFAULTS.port})`,
  },
  { name: 'host', type: 'string', value: 'addr', description: `address to bind (default ${DEFAULTS.host})` },
  {
    name: 'api-key',
    type: 'string',
    multiple: true,
    value: 'key',
    description:
      "accepted key, where each operation's security scheme puts it; repeat for more (default: PETSTORE_API_KEYS, else the development key)",
  },
  {
    name: 'cors-origin',
    type: 'string',
    multiple: true,
    value: 'origin',
    description:
      "browser Origin allowed besides loopback pages (localhost, *.localhost, 127.0.0.1, [::1], any port); repeat or comma-separate; '*' lets any page read answers, without cookies (default: loopback pages only)",
  },
  {
    name: 'allowed-host',
    type: 'string',
    multiple: true,
    value: 'name',
    description:
      "Host name answered besides loopback names and --host; '.name' takes its subdomains too; repeat or comma-separate; 'all' answers any Host (default: none)",
  },
  {
    name: 'admin-from-network',
    type: 'boolean',
    description: 'let other machines call the admin endpoints (default: only clients on this machine)',
  },
  {
    name: 'journal-secrets',
    type: 'boolean',
    description: 'show cookies and credential-named headers and query parameters in the journal and log (default: masked)',
  },
  {
    name: 'fixtures',
    type: 'string',
    value: 'file',
    description:
      'records loaded at start, restored on reset: a JSON array (the first resource), or an object keyed by collection path (default fixtures/pets.json)',
  },
  { name: 'no-fixtures', type: 'boolean', description: 'start with an empty store' },
  {
    name: 'state-file',
    type: 'string',
    value: 'file',
    description:
      'keep the records of every resource (sessions too) in this file across restarts: loaded at start instead of the fixtures, locked while the mock runs',
  },
  {
    name: 'max-state-bytes',
    type: 'string',
    value: 'size',
    description: `cap of the --state-file, e.g. 64MiB; past it a create is 409 store_full (default ${DEFAULTS.maxStateBytes / 1024 ** 2}MiB)`,
  },
  {
    name: 'max-pets',
    type: 'string',
    value: 'n',
    description: `most records of each resource (the pets of the shipped contract) in each store, the default one and each session's (default ${DEFAULTS.maxPets})`,
  },
  {
    name: 'max-store-bytes',
    type: 'string',
    value: 'n',
    description:
      'memory the records of every resource may take, in bytes; past it a create is 409 store_full (default: half the heap)',
  },
  {
    name: 'delay',
    type: 'string',
    value: 'ms|min-max',
    description: `delay every API answer by ms, or by a random time from min to max ms (at most ${MAX_DELAY_MS})`,
  },
  { name: 'contract', type: 'string', value: 'file', description: 'OpenAPI document to serve (default openapi.yaml)' },
  {
    name: 'max-sessions',
    type: 'string',
    value: 'n',
    description: `most X-Mock-Session stores at once (default ${DEFAULTS.maxSessions}; 0 turns sessions off)`,
  },
  {
    name: 'journal-size',
    type: 'string',
    value: 'n',
    description: `requests kept for GET /__admin/requests (default ${DEFAULTS.journalSize}; 0 keeps none), within --journal-bytes`,
  },
  {
    name: 'journal-bytes',
    type: 'string',
    value: 'size',
    description:
      'memory the journal may take, e.g. 16MiB; the oldest requests go first past it (default: a 16th of the heap, at most 64MiB)',
  },
  { name: 'log-format', type: 'string', value: 'text|json', description: 'per-request log lines as text (default) or JSON' },
  {
    name: 'watch',
    type: 'boolean',
    description: 'reload the contract and the fixtures file when they change, keeping the store',
  },
  { name: 'quiet', short: 'q', type: 'boolean', description: 'no per-request log lines' },
  {
    name: 'verbose',
    type: 'boolean',
    description: 'at start, each inferred resource in detail: id field, operations, filters, references, what stays stateless',
  },
  { name: 'help', short: 'h', type: 'boolean', description: 'show this help' },
  { name: 'version', short: 'v', type: 'boolean', description: 'show the version' },
];

const FOOTER = `Environment:
  PETSTORE_API_KEYS   comma-separated keys (used when no --api-key is given; empty counts as unset)

Admin endpoints (no auth; clients on this machine only; browsers only from the mock's origin or a --cors-origin):
  GET /__admin/health, POST /__admin/reset, GET /__admin/pets, GET and DELETE /__admin/requests,
  GET, POST and DELETE /__admin/rules`;

/** Returns the exit code when the mock did not start; a started mock runs until SIGINT or SIGTERM. */
export async function runMockCli(argv: readonly string[]): Promise<number | undefined> {
  const out = keepServingWhenOutputFails();
  try {
    const options = parseOptions(OPTIONS, argv);
    if (options.help) {
      process.stdout.write(
        renderHelp('Usage: petstore-mock [options]\n\nServes the Pet Store contract as a stateful mock.', OPTIONS, FOOTER),
      );
      return 0;
    }
    if (options.version) {
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    const apiKeys = readApiKeys((options['api-key'] as string[] | undefined) ?? [], process.env.PETSTORE_API_KEYS);
    if (options['no-fixtures'] && options.fixtures !== undefined) {
      throw new AppError('usage', '--fixtures and --no-fixtures cannot be used together: choose one');
    }
    const fixtures = options['no-fixtures'] ? false : ((options.fixtures as string | undefined) ?? defaultFixturesPath());
    const stateFile = options['state-file'] as string | undefined;
    const stateExisted = stateFile !== undefined && existsSync(stateFile);
    const corsOrigins = corsOriginsOption(options['cors-origin'] as string[] | undefined);
    const adminFromNetwork = (options['admin-from-network'] as boolean | undefined) ?? false;
    const journalBytes = byteSizeOption('journal-bytes', options['journal-bytes'] as string | undefined, defaultJournalBytes());
    const mock = await createMockServer({
      port: integerOption('port', options.port as string | undefined, 0, 65535),
      host: options.host as string | undefined,
      apiKeys,
      corsOrigins,
      allowedHosts: allowedHostsOption(options['allowed-host'] as string[] | undefined),
      adminFromNetwork,
      journalSecrets: options['journal-secrets'] as boolean | undefined,
      fixtures,
      maxPets: integerOption('max-pets', options['max-pets'] as string | undefined, 1, 100_000_000),
      maxStoreBytes: integerOption(
        'max-store-bytes',
        options['max-store-bytes'] as string | undefined,
        1,
        Number.MAX_SAFE_INTEGER,
      ),
      contract: options.contract as string | undefined,
      stateFile,
      watch: options.watch as boolean | undefined,
      delay: readDelay(options.delay as string | undefined),
      maxSessions: integerOption('max-sessions', options['max-sessions'] as string | undefined, 0, 100_000),
      maxStateBytes: byteSizeOption('max-state-bytes', options['max-state-bytes'] as string | undefined, DEFAULTS.maxStateBytes),
      journalBytes,
      journalSize: journalSizeOption(options['journal-size'] as string | undefined, journalBytes),
      logFormat: readLogFormat(options['log-format'] as string | undefined),
      log: options.quiet ? undefined : (line) => out.stdout(`${line}\n`),
      // What the mock says of itself (a reload, records set aside, a state file it cannot write) goes to stderr,
      // --quiet or not: it is not a request line, and a script reading stdout for the URL must not trip on it.
      notice: (line) => out.stderr(`${line}\n`),
    });
    const origin = new URL(mock.url).origin;
    // A state file that existed at start stood in for the fixtures.
    const source = stateFile !== undefined && stateExisted ? stateFile : fixtures;
    out.stdout(
      [
        `petstore-mock ${packageVersion()} serving ${relative(process.cwd(), mock.contract.file) || mock.contract.file} (${mock.contract.title} ${mock.contract.version})`,
        `Base URL: ${mock.url}`,
        apiKeys.length > 0
          ? `API keys: ${apiKeys.length} configured (not shown)`
          : `API key: ${DEV_API_KEY} (the development key; set --api-key or PETSTORE_API_KEYS to use your own)`,
        ...(mock.primary
          ? [
              recordsLine(
                capitalized(mock.primary.name),
                mock.store.size,
                source,
                options.fixtures === undefined && source === fixtures,
              ),
            ]
          : []),
        `Resources inferred: ${terminalText(summarizeResources(inferResources(mock.contract)))}`,
        ...(options.verbose ? resourceLines(mock.contract) : []),
        `Admin: ${origin}/__admin/health, POST ${origin}/__admin/reset${mock.primary ? `, ${origin}/__admin${mock.primary.collectionPath}` : ''}`,
        ...activeMockOptions(options).map((line) => `Active: ${line}`),
        ...exposureWarnings({
          host: (options.host as string | undefined) ?? DEFAULTS.host,
          adminFromNetwork,
          anyOrigin: corsOrigins?.includes('*') ?? false,
        }),
        // For scripts and test runners that start it on --port 0: one line to grep, in shell syntax.
        `PETSTORE_MOCK_URL=${mock.url}`,
        '',
      ].join('\n'),
    );
    const stop = () => {
      mock.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return undefined;
  } catch (error) {
    if (isAppError(error)) {
      out.stderr(
        `petstore-mock: ${error.message}\n${error.code === 'usage' ? 'Run petstore-mock --help for the options.\n' : ''}`,
      );
      return 2;
    }
    out.stderr(`petstore-mock: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}

/**
 * stdout piped to a reader that went away (`| head -2`: EPIPE), a full disk (ENOSPC) or a non-blocking pipe that is
 * full (EAGAIN) emit 'error' on the stream, which with no listener kills the process and every pet with it. The
 * mock keeps serving; the lines that cannot be written are dropped, and no more are tried on that stream.
 */
const MAX_PENDING_OUTPUT = 1024 * 1024;

function keepServingWhenOutputFails() {
  const broken = new Set<NodeJS.WriteStream>();
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => broken.add(stream));
  const writer = (stream: NodeJS.WriteStream) => (text: string) => {
    // A reader that stops reading without going away: Node buffers what it cannot write yet, without end. Past
    // a megabyte waiting, lines are dropped rather than held.
    if (broken.has(stream) || stream.writableLength > MAX_PENDING_OUTPUT) return;
    try {
      stream.write(text);
    } catch {
      broken.add(stream);
    }
  };
  return { stdout: writer(process.stdout), stderr: writer(process.stderr) };
}

// The ceiling follows from the budget: a count it could never hold is refused, not met as a heap OOM (exit 134).
function journalSizeOption(text: string | undefined, journalBytes: number): number | undefined {
  try {
    return integerOption('journal-size', text, 0, maxJournalSize(journalBytes));
  } catch (error) {
    throw new AppError(
      'usage',
      `${(error as Error).message}: the journal's budget of ${journalBytes} bytes (--journal-bytes) holds no more requests, at ${JOURNAL_RECORD_MIN_BYTES} bytes each at least`,
    );
  }
}

function readLogFormat(text: string | undefined): 'text' | 'json' | undefined {
  if (text === undefined || text === 'text' || text === 'json') return text;
  throw new AppError('usage', `--log-format must be text or json (got '${text}')`);
}

/** --delay 200 or --delay 100-500. */
function readDelay(text: string | undefined): { minMs: number; maxMs: number } | undefined {
  if (text === undefined) return undefined;
  const parts = text.split('-');
  if (parts.length > 2 || parts.includes('')) {
    throw new AppError('usage', `--delay must be ms or min-max ms, e.g. 200 or 100-500 (got '${text}')`);
  }
  const [min, max = min] = parts;
  const minMs = integerOption('delay', min, 0, MAX_DELAY_MS) as number;
  const maxMs = integerOption('delay', max, minMs, MAX_DELAY_MS) as number;
  return { minMs, maxMs };
}

/**
 * --api-key wins over PETSTORE_API_KEYS; neither given means the development key. A key that is empty, or a
 * variable with nothing but commas and spaces, is a mistake that would otherwise fall back to the development
 * key unnoticed. An empty variable counts as unset. Keys are never repeated in a message.
 */
function readApiKeys(flagKeys: readonly string[], variable: string | undefined): string[] {
  if (flagKeys.some((key) => key.trim() === '')) throw new AppError('usage', '--api-key must not be empty');
  if (flagKeys.some((key) => key.trim() !== key)) throw new AppError('usage', '--api-key must not begin or end with a space');
  if (flagKeys.length > 0) return [...flagKeys];
  const envKeys = (variable ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (envKeys.length === 0 && variable !== undefined && variable !== '') {
    throw new AppError('usage', 'PETSTORE_API_KEYS holds no key, only commas or spaces: set comma-separated keys, or unset it');
  }
  return envKeys;
}

// `--cors-origin '*'` lets any page in, besides those named; anything else must be an origin as a browser sends
// it. A comma never stands in an origin, so `a,b` is two.
function corsOriginsOption(given: readonly string[] | undefined): CorsOrigins | undefined {
  if (given === undefined) return undefined;
  const origins = splitList(given);
  const wrong = origins.find((origin) => origin !== '*' && !isCorsOrigin(origin));
  if (wrong !== undefined) {
    throw new AppError(
      'usage',
      `--cors-origin must be '*', 'null' or an origin as a browser sends it, scheme://host[:port] with no path or trailing slash (http://localhost:3000); got '${wrong}'`,
    );
  }
  return origins;
}

// `--allowed-host all` (or '*', as Vite's server.allowedHosts: true) answers any Host.
function allowedHostsOption(given: readonly string[] | undefined): AllowedHosts | undefined {
  if (given === undefined) return undefined;
  const names = splitList(given);
  if (names.some((name) => name === 'all' || name === '*')) return 'all';
  const wrong = names.find((name) => !isAllowedHostEntry(name));
  if (wrong !== undefined) {
    throw new AppError(
      'usage',
      `--allowed-host must be 'all' or a host name without a port (example.test, .example.test for it and its subdomains, 192.168.1.5); got '${wrong}'`,
    );
  }
  return names;
}

// Repeated, comma-separated, or both; an empty item (a trailing comma) is dropped.
function splitList(given: readonly string[]): string[] {
  return given
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function capitalized(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/**
 * How many records the first resource starts with, and from where. The default fixtures are the Pet Store's pets:
 * under another contract they fit nothing and are set aside silently, and "0 from fixtures/pets.json" read as if
 * the file were broken.
 */
function recordsLine(name: string, size: number, source: string | false | undefined, defaultFixtures: boolean): string {
  if (!source) return `${name}: ${size}`;
  const shown = relative(process.cwd(), source) || source;
  if (size === 0 && defaultFixtures)
    return `${name}: 0 (the default fixtures, ${shown}, hold none that fit this contract: give --fixtures <file>)`;
  return `${name}: ${size} from ${shown}`;
}
