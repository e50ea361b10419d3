import { bracketed, hostnameOf } from './host-names.js';
import { isLoopbackName } from './loopback.js';

/** --allowed-host: names, `.example.test` for it and its subdomains (as Vite's server.allowedHosts), or 'all'. */
export type AllowedHosts = 'all' | readonly string[];

/**
 * The Host names the mock answers on every path: loopback names, the address it binds and the names allowed
 * explicitly. DNS rebinding: a page on evil.example whose name now points at 127.0.0.1 is same-origin to itself,
 * needs no CORS and sends no Origin on a GET; its Host still names evil.example (CVE-2025-24010 for Vite).
 */
export function allowHosts(allowed: AllowedHosts | undefined, bindHost: string): (name: string) => boolean {
  if (allowed === 'all') return () => true;
  const names = new Set([nameOf(bindHost)]);
  const suffixes: string[] = [];
  for (const entry of allowed ?? []) {
    const name = entry.toLowerCase();
    if (name.startsWith('.')) {
      suffixes.push(name);
      names.add(name.slice(1));
    } else names.add(nameOf(name));
  }
  return (name) => isLoopbackName(name) || names.has(name) || suffixes.some((suffix) => name.endsWith(suffix));
}

// As a Host header names it: ::1 and [::1] are [::1].
function nameOf(host: string): string {
  return hostnameOf(host.startsWith('[') ? host : bracketed(host));
}

/** A name as --allowed-host takes it: a host without a port, or `.name` for a name and its subdomains. */
export function isAllowedHostEntry(value: unknown): boolean {
  return typeof value === 'string' && ENTRY.test(value);
}

// A reg-name (RFC 3986 §3.2.2) without a port, optionally after one dot; or an IP literal, bracketed or not.
const ENTRY = /^(?:\.?[A-Za-z0-9_~-]+(?:\.[A-Za-z0-9_~-]+)*|\[?[0-9A-Fa-f:.]+\]?)$/;
