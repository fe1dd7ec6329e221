/**
 * Who may talk to the web view. The server reads the repository and local
 * files, so a page on another site must not be able to reach it:
 * - bound to loopback, the Host header must name a loopback host, which
 *   defeats DNS rebinding (evil.example resolving to 127.0.0.1);
 * - an Origin header, when present, must be this server's own origin, so
 *   another site's script cannot POST to it or read its answers.
 */
import { hostnameOf, isLoopbackHost } from '../mcp-server/index.js';

/** A refused request: status and one sentence. */
export interface WebRefusal {
  status: 403;
  message: string;
}

/**
 * Checks one request's Host and Origin headers against the bind address;
 * null when it may proceed.
 */
export function checkWebRequest(headers: { host?: string; origin?: string }, boundHost: string): WebRefusal | null {
  const host = headers.host;
  if (isLoopbackHost(boundHost) && host !== undefined && !isLoopbackHost(hostnameOf(host))) {
    return { status: 403, message: `Host '${host.slice(0, 100)}' is not allowed: this server only answers requests addressed to localhost.` };
  }
  if (headers.origin !== undefined && !sameOrigin(headers.origin, host)) {
    return { status: 403, message: `Origin '${headers.origin.slice(0, 100)}' is not allowed: only pages served by this server may call its API.` };
  }
  return null;
}

/** True when `origin` is `http://<host header>` (the page this server served). */
export function sameOrigin(origin: string, hostHeader: string | undefined): boolean {
  if (hostHeader === undefined) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (sandboxed frames, file://) and garbage
  }
  return url.protocol === 'http:' && url.host.toLowerCase() === hostHeader.trim().toLowerCase();
}
