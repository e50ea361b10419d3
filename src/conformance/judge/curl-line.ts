import { maskUrlCredentials } from '../../shared/mask-credentials.js';
import { REDACTED_BEARER, type SentRequest } from '../http/exchange.js';
import { proxyFor } from '../http/proxy-for.js';

/**
 * A shell line that sends the same request. The run's key is never in it: a redacted Authorization header
 * becomes $PETSTORE_API_KEY, which the reader exports, so the line still reproduces the request. `transport`
 * holds the connection options the run used (curlTransport), so the line reaches the same server the same way.
 */
export function curlLine(request: SentRequest, transport: readonly string[] = []): string {
  // curl -X HEAD would wait for a body that never comes: -I is curl's own HEAD.
  const method = request.method === 'GET' ? '' : request.method === 'HEAD' ? '-I' : `-X ${request.method}`;
  const parts = ['curl -sS -i', ...transport, method, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization' && value === REDACTED_BEARER) parts.push('-H "Authorization: Bearer $PETSTORE_API_KEY"');
    else parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (request.body !== undefined) parts.push(`--data-raw ${shellQuote(request.body)}`);
  return parts.filter(Boolean).join(' ');
}

export interface CurlTransport {
  readonly target: string;
  /** --ca: the file, as the user named it. */
  readonly caFile?: string | undefined;
  readonly insecure?: boolean | undefined;
  /** Where HTTP_PROXY, HTTPS_PROXY and NO_PROXY are read, as the run's dispatcher reads them (create-dispatcher.ts). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * The curl options that match the run's connections: an HTTPS target verified with --ca needs `--cacert`, one
 * reached with --insecure needs `-k`, and a target the run reached through a proxy is reached through it again.
 * A proxy URL's password is masked (the reader puts their own back): a curl line is shown in every report.
 */
export function curlTransport(options: CurlTransport): string[] {
  const url = new URL(options.target);
  const https = url.protocol === 'https:';
  const proxy = proxyFor(url, options.env);
  return [
    ...(https && options.caFile !== undefined ? [`--cacert ${shellQuote(options.caFile)}`] : []),
    ...(https && options.insecure === true ? ['-k'] : []),
    ...(proxy === undefined ? [] : [`-x ${shellQuote(maskUrlCredentials(proxy))}`]),
  ];
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
