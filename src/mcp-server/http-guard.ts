/**
 * Access rules of the HTTP transport, as pure functions. The MCP spec's
 * security guidance for Streamable HTTP: validate Origin on every request (DNS
 * rebinding), bind to localhost by default, authenticate otherwise. Here:
 * - a non-loopback bind requires a bearer token, or the server refuses to start;
 * - on a loopback bind the Host header must name a loopback host, so a page on
 *   a rebound domain cannot reach the server;
 * - an Origin header, when present, must be a loopback origin (loopback bind)
 *   or one explicitly allowed; anything else is 403;
 * - with a token, every request needs `Authorization: Bearer <token>` (401 otherwise).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ReponavError } from '../errors.js';

/** What the guard knows about the listening server. */
export interface GuardConfig {
  /** The host the server is bound to. */
  host: string;
  /** Required bearer token, or undefined for none (loopback only). */
  token?: string;
  /** Origins (`https://app.example.com`) allowed besides loopback ones. */
  allowedOrigins?: readonly string[];
}

/** A refusal: the HTTP status and a one-sentence reason. */
export interface GuardRefusal {
  status: 401 | 403;
  message: string;
  headers?: Record<string, string>;
}

/** Shortest token accepted: a guessable token is no protection. */
export const MIN_TOKEN_LENGTH = 16;

/** True for `localhost`, `127.0.0.0/8`, `::1` (with or without brackets). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/**
 * Checks a server configuration before listening. Throws BAD_INPUT when a
 * non-loopback host has no token, or the token is too short to be secret.
 */
export function checkListenConfig(config: GuardConfig): void {
  if (config.token !== undefined && config.token.length < MIN_TOKEN_LENGTH) {
    throw new ReponavError('BAD_INPUT', `The token must be at least ${MIN_TOKEN_LENGTH} characters; generate one with: openssl rand -hex 32`);
  }
  if (!isLoopbackHost(config.host) && config.token === undefined) {
    throw new ReponavError(
      'BAD_INPUT',
      `Refusing to listen on ${config.host} without a token: anyone on the network could read the repository. Pass --token (or REPONAV_MCP_TOKEN), or bind to 127.0.0.1.`,
    );
  }
}

/** The hostname of a Host header value (`localhost:8080`, `[::1]:80`). */
export function hostnameOf(hostHeader: string): string {
  const value = hostHeader.trim();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') === -1 ? undefined : value.indexOf(']'));
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/** Checks one request's headers; null when it may proceed. */
export function checkRequest(headers: { host?: string; origin?: string; authorization?: string }, config: GuardConfig): GuardRefusal | null {
  const loopback = isLoopbackHost(config.host);
  if (loopback) {
    const host = headers.host;
    if (host !== undefined && !isLoopbackHost(hostnameOf(host))) {
      return { status: 403, message: `Host '${host.slice(0, 100)}' is not allowed: this server only answers requests addressed to localhost.` };
    }
  }
  if (headers.origin !== undefined && !originAllowed(headers.origin, loopback, config.allowedOrigins ?? [])) {
    return { status: 403, message: `Origin '${headers.origin.slice(0, 100)}' is not allowed; start the server with --allow-origin to permit it.` };
  }
  if (config.token !== undefined && !bearerMatches(headers.authorization, config.token)) {
    return {
      status: 401,
      message: 'Missing or wrong bearer token: send Authorization: Bearer <token>.',
      headers: { 'WWW-Authenticate': 'Bearer realm="reponav"' },
    };
  }
  return null;
}

/** True when a request's Origin may talk to the server. */
export function originAllowed(origin: string, boundToLoopback: boolean, allowed: readonly string[]): boolean {
  const normalized = origin.trim().toLowerCase().replace(/\/+$/, '');
  if (allowed.some((a) => a.trim().toLowerCase().replace(/\/+$/, '') === normalized)) return true;
  if (!boundToLoopback) return false;
  let url: URL;
  try {
    url = new URL(normalized);
  } catch {
    return false; // `null` (sandboxed frames, file://) and garbage
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname);
}

/** Constant-time comparison of `Bearer <token>` against the expected token. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  if (!authorization) return false;
  const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  if (!match) return false;
  // Hash both sides so the comparison is constant-time regardless of length.
  const given = createHash('sha256').update(match[1].trim()).digest();
  const expected = createHash('sha256').update(token).digest();
  return timingSafeEqual(given, expected);
}
