// Lower-case names first; an https:// target without HTTPS_PROXY goes through HTTP_PROXY, as undici's
// EnvHttpProxyAgent (the run's dispatcher) sends it.
const PROXY_NAMES = {
  'https:': ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'],
  'http:': ['http_proxy', 'HTTP_PROXY'],
};

/** The proxy the run's dispatcher sends requests to `url` through (create-dispatcher.ts), if any. */
export function proxyFor(url: URL, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const names = PROXY_NAMES[url.protocol === 'https:' ? 'https:' : 'http:'];
  const proxy = names.map((name) => env[name]).find(Boolean);
  if (proxy === undefined || bypassed(url.hostname, env.no_proxy ?? env.NO_PROXY ?? '')) return undefined;
  return proxy;
}

// NO_PROXY: `*`, or host names and domains (`.example.com` or `example.com` covers its subdomains), ports ignored.
function bypassed(host: string, noProxy: string): boolean {
  return noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const name = entry
        .replace(/:\d+$/, '')
        .replace(/^\*?\./, '')
        .toLowerCase();
      return host === name || host.endsWith(`.${name}`);
    });
}
