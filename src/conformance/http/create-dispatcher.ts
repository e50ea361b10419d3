import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
import type { HttpClientOptions } from './create-http-client.js';
import { noteBytesRead } from './note-bytes-read.js';
import { skipUnsolicitedContinue } from './skip-unsolicited-continue.js';

/**
 * The connections a client's requests go over: plain ones, or through HTTP_PROXY / HTTPS_PROXY when one is set
 * (NO_PROXY honoured; lower-case names first, as curl reads them). Through a proxy the connection is undici's own,
 * without the skipping of unsolicited 100 Continue answers. --ca adds to the trusted roots instead of replacing
 * them: Node's own, and those of NODE_EXTRA_CA_CERTS, which Node would otherwise drop once a `ca` is given.
 * A run opens many (one per case on a connection of its own): the environment and the certificates are read once,
 * and the connector is shared.
 */
export function dispatcherFactory(options: HttpClientOptions): (connections: number) => Dispatcher {
  const tls = tlsOptions(options);
  const connect = noteBytesRead(skipUnsolicitedContinue(tls));
  const env = process.env;
  const proxied = PROXY_VARIABLES.some((name) => Boolean(env[name]));
  return (connections) => {
    const agent = { keepAliveTimeout: 10_000, connections, connect };
    // http:// targets go to an http:// proxy in absolute form, as curl sends them; https:// ones through CONNECT.
    return proxied ? new EnvHttpProxyAgent({ ...agent, requestTls: tls, proxyTunnel: false }) : new Agent(agent);
  };
}

/** How the run trusts the target's certificate: its connections and its raw requests (send-raw.ts) alike. */
export function tlsOptions(options: Pick<HttpClientOptions, 'insecure' | 'ca'>): {
  readonly rejectUnauthorized: boolean;
  readonly ca?: string[];
} {
  return {
    rejectUnauthorized: options.insecure !== true,
    ...(options.ca === undefined ? {} : { ca: [...rootCertificates, ...extraCertificates(), options.ca] }),
  };
}

const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY'];

/**
 * The passwords in the proxy URLs (`http://user:password@proxy:3128`): undici sends them to the proxy only, but a
 * proxy that refuses them may answer with them, and an error may quote the URL.
 */
export function proxyCredentials(env: Readonly<Record<string, string | undefined>>): string[] {
  return PROXY_VARIABLES.flatMap((name) => {
    try {
      const password = new URL(env[name] ?? '').password;
      return password === '' ? [] : [decodeURIComponent(password)];
    } catch {
      return [];
    }
  });
}

function extraCertificates(): string[] {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    return []; // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS.
  }
}
