import { describe, expect, it } from 'vitest';
import { bearerMatches, checkListenConfig, checkRequest, hostnameOf, isLoopbackHost, originAllowed } from './http-guard.js';

const TOKEN = 'a-long-enough-token-123';

describe('isLoopbackHost and hostnameOf', () => {
  it('knows loopback names and addresses', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', 'LOCALHOST']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '192.168.1.4', 'example.com', 'localhost.evil.com', '::']) expect(isLoopbackHost(host)).toBe(false);
  });

  it('reads the hostname of a Host header', () => {
    expect(hostnameOf('localhost:8080')).toBe('localhost');
    expect(hostnameOf('[::1]:80')).toBe('::1');
    expect(hostnameOf('example.com')).toBe('example.com');
  });
});

describe('checkListenConfig', () => {
  it('refuses a non-loopback bind without a token, and short tokens', () => {
    expect(() => checkListenConfig({ host: '0.0.0.0' })).toThrow(/Refusing to listen on 0.0.0.0 without a token/);
    expect(() => checkListenConfig({ host: '127.0.0.1', token: 'short' })).toThrow(/at least 16 characters/);
    expect(() => checkListenConfig({ host: '0.0.0.0', token: TOKEN })).not.toThrow();
    expect(() => checkListenConfig({ host: 'localhost' })).not.toThrow();
  });
});

describe('checkRequest', () => {
  const loopback = { host: '127.0.0.1' };

  it('lets local clients through (no Origin, loopback Host)', () => {
    expect(checkRequest({ host: '127.0.0.1:3000' }, loopback)).toBeNull();
    expect(checkRequest({ host: 'localhost:3000', origin: 'http://localhost:5173' }, loopback)).toBeNull();
  });

  it('refuses DNS-rebinding: a foreign Host or Origin on a loopback bind', () => {
    expect(checkRequest({ host: 'evil.example:3000' }, loopback)?.status).toBe(403);
    expect(checkRequest({ host: 'localhost:3000', origin: 'http://evil.example' }, loopback)?.status).toBe(403);
    expect(checkRequest({ host: 'localhost:3000', origin: 'null' }, loopback)?.status).toBe(403);
  });

  it('requires the bearer token when one is set', () => {
    const config = { host: '0.0.0.0', token: TOKEN };
    expect(checkRequest({ host: 'server:80' }, config)).toMatchObject({ status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="reponav"' } });
    expect(checkRequest({ host: 'server:80', authorization: 'Bearer nope' }, config)?.status).toBe(401);
    expect(checkRequest({ host: 'server:80', authorization: `bearer ${TOKEN}` }, config)).toBeNull();
  });

  it('allows only listed origins on a non-loopback bind', () => {
    const config = { host: '0.0.0.0', token: TOKEN, allowedOrigins: ['https://app.example'] };
    const auth = `Bearer ${TOKEN}`;
    expect(checkRequest({ origin: 'https://app.example/', authorization: auth }, config)).toBeNull();
    expect(checkRequest({ origin: 'http://localhost:3000', authorization: auth }, config)?.status).toBe(403);
  });
});

describe('originAllowed and bearerMatches', () => {
  it('parses origins strictly', () => {
    expect(originAllowed('http://127.0.0.1:9000', true, [])).toBe(true);
    expect(originAllowed('file://', true, [])).toBe(false);
    expect(originAllowed('garbage', true, [])).toBe(false);
  });

  it('compares tokens exactly', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});
