import { BUILT_IN_REPORTERS } from '../conformance/reporters/built-in-reporters.js';
import { SEVERITIES } from '../conformance/judge/severity.js';
import type { OptionRow } from './option-table.js';

export const DEFAULT_REPORTERS = ['console', 'json', 'junit', 'markdown', 'html'];

/** Under most CI jobs' own timeouts, so a slow target gets a report rather than a killed job. */
export const DEFAULT_DEADLINE = '10m';

/** The conformance command's options: parsing, --help and the options block of docs/reference/conformance-cli.md are made from it. */
export const CONFORMANCE_OPTIONS: readonly OptionRow[] = [
  {
    name: 'target',
    short: 't',
    type: 'string',
    value: 'url',
    description: 'base URL of the target, including /v1, without user:password@, a query or a fragment (required)',
  },
  {
    name: 'token',
    type: 'string',
    value: 'key',
    description: "API key, sent where each operation's security scheme puts it (default: PETSTORE_API_KEY)",
  },
  {
    name: 'scenarios',
    type: 'string',
    multiple: true,
    value: 'dir|glob',
    description:
      'scenario folder, file or glob, or @shipped for the shipped suite; repeat to add more (default ./conformance/, else @shipped)',
  },
  { name: 'report-dir', type: 'string', value: 'dir', description: 'where reports are written', default: 'reports' },
  {
    name: 'reporter',
    short: 'r',
    type: 'string',
    multiple: true,
    value: 'name',
    description: `${Object.keys(BUILT_IN_REPORTERS).join(', ')}; repeat or comma-separate (default: all)`,
  },
  {
    name: 'fail-on',
    type: 'string',
    value: 'severity',
    description: `${SEVERITIES.join(', ')}: lowest that fails`,
    default: 'medium',
  },
  { name: 'tags', type: 'string', multiple: true, value: 'tags', description: 'run only scenarios with one of these tags' },
  { name: 'skip-tags', type: 'string', multiple: true, value: 'tags', description: 'skip scenarios with one of these tags' },
  { name: 'read-only', type: 'boolean', description: "skip scenarios tagged 'mutating' (safe against production data)" },
  { name: 'timeout', type: 'string', value: 'ms', description: 'per request, in ms or with s', default: '10s' },
  {
    name: 'deadline',
    type: 'string',
    value: 'duration',
    description: 'for the whole run, as 30s, 5m or 1h: no case starts after it',
    default: DEFAULT_DEADLINE,
  },
  { name: 'max-response-time', type: 'string', value: 'ms', description: 'slower answers are a low finding', default: '2000' },
  {
    name: 'concurrency',
    short: 'c',
    type: 'string',
    value: 'n',
    description: 'cases run at once, and requests in flight',
    default: '4',
  },
  { name: 'rate-limit', type: 'string', value: 'n', description: 'most requests per second (default: no limit)' },
  { name: 'contract', type: 'string', value: 'file', description: 'OpenAPI document (default openapi.yaml)' },
  {
    name: 'seed',
    type: 'string',
    value: 'n',
    description: 'seed of the generated cases; the same seed sends the same cases (default: random, printed)',
  },
  {
    name: 'generate',
    type: 'string',
    multiple: true,
    value: 'kinds',
    description: 'kinds of case derived from the contract; repeat or comma-separate (default: all)',
  },
  { name: 'no-generate', type: 'boolean', description: 'run the scenario files only, no generated cases' },
  {
    name: 'no-cleanup',
    type: 'boolean',
    description: 'keep what the run created (default: delete it at the end where the contract documents a delete)',
  },
  { name: 'max-cases', type: 'string', value: 'n', description: 'run at most n generated cases (default: all)' },
  {
    name: 'case',
    type: 'string',
    multiple: true,
    value: 'id|glob',
    description: 'run only the cases whose id or name matches; repeat or comma-separate',
  },
  {
    name: 'header',
    short: 'H',
    type: 'string',
    multiple: true,
    value: "'Name: value'",
    description: 'a header sent with every request (a step that sets it wins); repeatable',
  },
  { name: 'insecure', type: 'boolean', description: 'accept any TLS certificate (self-signed staging)' },
  { name: 'ca', type: 'string', value: 'file', description: 'PEM file of certificates to trust besides the usual ones' },
  {
    name: 'max-response-bytes',
    type: 'string',
    value: 'n',
    description: 'larger answers are a finding, read no further; bytes, or with KiB or MiB',
    default: '10MiB',
  },
  {
    name: 'max-failures',
    type: 'string',
    value: 'n',
    description: 'stop starting cases after n have failed (default: no limit)',
  },
  { name: 'list', type: 'boolean', description: 'print the id and name of every case this run would send, and send nothing' },
  {
    name: 'verbose',
    type: 'boolean',
    description: 'first print each inferred resource in detail: id field, operations, filters, references, what stays stateless',
  },
  {
    name: 'shard',
    type: 'string',
    value: 'i/n',
    description: 'run only the i-th of n stable slices of the cases (CI matrices); merge with --merge',
  },
  {
    name: 'wait',
    type: 'string',
    value: 'duration',
    description: 'wait up to this long for the target to answer any HTTP before the run (e.g. 60s; default: no wait)',
  },
  {
    name: 'merge',
    type: 'string',
    multiple: true,
    value: 'report.json',
    description: 'write one set of reports from the report.json of each shard, and send nothing; repeatable',
  },
  { name: 'help', short: 'h', type: 'boolean', description: 'show this help' },
  { name: 'version', short: 'v', type: 'boolean', description: 'show the version' },
];

export const CONFORMANCE_HELP_FOOTER = `Environment:
  PETSTORE_API_KEY       the API key (prefer it to --token: command lines are visible to other users)
  GITHUB_STEP_SUMMARY    the Markdown summary is appended to this file when set
  HTTP_PROXY, HTTPS_PROXY, NO_PROXY   proxies, as curl reads them (also in lower case)
  NODE_EXTRA_CA_CERTS    more certificates to trust, as for any Node.js program
  NO_COLOR               no colour in the console (there is colour only on a terminal anyway)

Exit codes: 0 no failure at or above --fail-on, 1 conformance failures (or an operation given up after
timeouts), 2 usage, scenario, contract or configuration error (a refused key, a --target without /v1, a TLS
certificate not trusted, https:// to a plain-HTTP server, a sign-in page or a web page instead of the API),
3 target unreachable, not serving (502, 503, 504 everywhere), gone during the run, or --deadline reached with
nothing failed, 4 a bug in the runner. After 2, 3 or 4 the reports say why the run did not happen.`;
