/** An IPv6 address in a URL or Host is bracketed (RFC 3986 §3.2.2): ::1 → [::1]. */
export function bracketed(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** The name part of a Host header (RFC 9110 §7.2), lower-case: [::1]:4010 → [::1], Localhost:4010 → localhost. */
export function hostnameOf(host: string): string {
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.lastIndexOf(':');
  return (end <= 0 ? host : host.slice(0, end)).toLowerCase();
}
