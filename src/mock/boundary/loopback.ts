/**
 * What counts as this machine: a browser page, a Host name or a client address that can only be local. The
 * browser boundary (cors.ts, allowed-hosts.ts, the admin endpoints' guard) is drawn from these, as Vite draws
 * its own since CVE-2025-24010.
 */

// 127.0.0.0/8 is loopback as a whole (RFC 1122 §3.2.1.3), not only 127.0.0.1.
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

// A page on localhost, a subdomain of it (RFC 6761 §6.3: always loopback), a 127/8 address or [::1], on any port.
// Labels hold no dot, so the repetition cannot backtrack.
const LOOPBACK_ORIGIN = /^https?:\/\/(?:(?:[a-z0-9-]+\.)*localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(?::\d{1,5})?$/i;

/** A host name as hostnameOf gives it (lower-case, IPv6 in brackets, no port). */
export function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || LOOPBACK_V4.test(name);
}

/** An Origin header of a page served from this machine. */
export function isLoopbackOrigin(origin: string): boolean {
  return LOOPBACK_ORIGIN.test(origin);
}

/**
 * A client address (socket.remoteAddress) on this machine. A dual-stack socket shows an IPv4 client as
 * ::ffff:127.0.0.1 (RFC 4291 §2.5.5.2); undefined is a socket already gone, which is nobody to trust.
 */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || LOOPBACK_V4.test(v4);
}
