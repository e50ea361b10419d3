import type { Operation } from '../../contract/operation.js';
import { cookiePairs } from '../../shared/cookie-pairs.js';
import { isCredentialName } from '../../shared/mask-credentials.js';

/**
 * A header or cookie parameter the contract requires whose name says it holds a credential (X-Refresh-Token, a
 * session cookie) is never made up by the run (required-headers.ts): a server that requires it refuses every request
 * of those operations, which reads like a broken server. Where -H did not give it, and the run's key does not go
 * there, the run says so once, with how to give it.
 */
export function credentialParametersHint(
  operations: readonly Operation[],
  given: Readonly<Record<string, string>> | undefined,
): string | undefined {
  const headers = new Map(Object.entries(given ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const cookies = cookiePairs(headers.get('cookie'));
  const missing = new Map<string, { readonly how: string; count: number }>();
  for (const operation of operations) {
    const keyAt = [operation.key, ...(operation.otherKeys ?? [])].flatMap((key) =>
      key?.scheme === 'apiKey' ? [`${key.in} ${key.name.toLowerCase()}`] : [],
    );
    for (const parameter of operation.parameters) {
      const { name } = parameter;
      if (!parameter.required || !isCredentialName(name) || name.toLowerCase() === 'authorization') continue;
      if (keyAt.includes(`${parameter.in} ${name.toLowerCase()}`)) continue;
      const how =
        parameter.in === 'header' && !headers.has(name.toLowerCase())
          ? `the ${name} header (-H '${name}: <value>')`
          : parameter.in === 'cookie' && cookies[name] === undefined
            ? `the ${name} cookie (-H 'Cookie: ${name}=<value>')`
            : undefined;
      if (how === undefined) continue;
      const seen = missing.get(how) ?? { how, count: 0 };
      seen.count++;
      missing.set(how, seen);
    }
  }
  if (missing.size === 0) return undefined;
  const list = [...missing.values()].map(({ how, count }) => `${how}, required by ${count} operation${count === 1 ? '' : 's'}`);
  const says = missing.size === 1 ? 'Its name says it holds a credential' : 'Their names say they hold credentials';
  return `Not sent: ${list.join('; ')}. ${says}, which the run never makes up, so a server that requires ${missing.size === 1 ? 'it' : 'them'} refuses those requests: give ${missing.size === 1 ? 'it' : 'them'} with -H.`;
}
