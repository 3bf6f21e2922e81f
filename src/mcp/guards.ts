/**
 * DNS-rebinding guards for the network transports, and the bind rule. The
 * SDK's own guards (hostHeaderValidation, localhostHostValidation) are Express
 * middleware that answer 403 to a bad Host, where the MCP spec and this server
 * answer 421, so the same port-agnostic hostname check is done here on plain
 * node:http requests, shared by http and sse.
 */
const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];
/** Addresses that mean "every interface": no client names them, so they add no allowed hostname. */
const WILDCARDS = ['0.0.0.0', '[::]'];

/** The hostname as URL parsing writes it: lower case, IPv6 in brackets. */
export function hostnameOf(host: string): string | null {
  const bareIPv6 = (host.match(/:/g) ?? []).length > 1 && !host.startsWith('[');
  const literal = bareIPv6 ? `[${host}]` : host;
  try {
    return new URL(`http://${literal}`).hostname;
  } catch {
    return null;
  }
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTNAMES.includes(hostnameOf(host) ?? '');
}

/** Why binding `host` is refused, or null: beyond loopback only with --allow-remote. */
export function bindRefusal(host: string, allowRemote: boolean): string | null {
  if (isLoopbackHost(host) || allowRemote) return null;
  return `refusing to listen on ${host}: it is reachable beyond this machine; bind 127.0.0.1, localhost or ::1, or pass --allow-remote to accept that`;
}

/** The hostnames a request may name: loopback, and the bound host unless it is a wildcard. */
export function allowedHostnames(boundHost: string): string[] {
  const bound = hostnameOf(boundHost);
  return bound && !WILDCARDS.includes(bound) ? [...new Set([...LOOPBACK_HOSTNAMES, bound])] : [...LOOPBACK_HOSTNAMES];
}

/** A Host header must name this server (else 421). */
export function hostAllowed(hostHeader: string | undefined, allowed: string[]): boolean {
  if (!hostHeader) return false;
  const name = hostnameOf(hostHeader);
  return name !== null && allowed.includes(name);
}

/** An Origin, when a browser sends one, must be this server or loopback (else 403). */
export function originAllowed(originHeader: string | undefined, allowed: string[]): boolean {
  if (originHeader === undefined) return true; // not a browser: nothing to rebind
  try {
    return allowed.includes(new URL(originHeader).hostname);
  } catch {
    return false; // "null" and other opaque origins
  }
}
