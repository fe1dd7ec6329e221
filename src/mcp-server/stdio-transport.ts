/**
 * MCP over stdio that survives bad input. The SDK's StdioServerTransport
 * closes the connection when one message exceeds its 10 MiB buffer (the
 * process then exits 0 with no reply) and drops lines that are not JSON
 * without a word. This transport answers both as JSON-RPC says and keeps
 * serving:
 * - a line longer than `maxMessageBytes` is skipped up to its newline without
 *   being buffered, and answered with `-32600 Invalid Request` (carrying the
 *   request id when it can be read from the line's first bytes);
 * - a line that is not JSON gets `-32700 Parse error`; JSON that is not a
 *   JSON-RPC message gets `-32600`.
 * Written by hand because the SDK transport offers no hook for either case; it
 * keeps the SDK's framing (newline-delimited JSON, `serializeMessage`).
 */
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';

/** Largest message accepted (the SDK's own stdio limit). */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;

/** How many leading bytes of an oversized line are kept to find its request id. */
const ID_PROBE_BYTES = 4096;

const NEWLINE = 0x0a;

export interface BoundedStdioOptions {
  /** Default MAX_STDIO_MESSAGE_BYTES. */
  maxMessageBytes?: number;
  /** Told about every refused line (for the server's stderr log). */
  onRefused?: (reason: string) => void;
  /** Called once when the transport closes (stdin ended, output failed, or close()); independent of `onclose`, which the SDK owns. */
  onClosed?: () => void;
}

/** The request id of a JSON-RPC message whose text starts with `prefix`, or null when it cannot be read. */
export function requestIdFromPrefix(prefix: string): string | number | null {
  // The id usually comes before the large params; a top-level-looking `"id":` is good enough for an error reply.
  const match = /"id"\s*:\s*(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,200}")/.exec(prefix);
  if (!match) return null;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return null;
  }
}

/** A stdio Transport that refuses oversized and malformed lines with a JSON-RPC error instead of closing. */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxBytes: number;
  private chunks: Buffer[] = [];
  private size = 0;
  /** While skipping an oversized line: its first bytes (to read the id), else null. */
  private skipping: Buffer | null = null;
  private skippedBytes = 0;
  private started = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly options: BoundedStdioOptions = {},
  ) {
    this.maxBytes = options.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioTransport already started.');
    this.started = true;
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onStdinClose);
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStdinError);
    this.stdin.on('end', this.onStdinClose);
    this.stdin.on('close', this.onStdinClose);
    this.stdout.on('error', this.onStdoutError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStdinError);
    this.stdin.off('end', this.onStdinClose);
    this.stdin.off('close', this.onStdinClose);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.size = 0;
    this.onclose?.();
    this.options.onClosed?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('BoundedStdioTransport is closed'));
    return new Promise((resolve, reject) => {
      const ok = this.stdout.write(serializeMessage(message), (error) => (error ? reject(error) : undefined));
      if (ok) resolve();
      else this.stdout.once('drain', () => resolve());
    });
  }

  private readonly onStdinError = (error: Error) => this.onerror?.(error);
  private readonly onStdinClose = () => void this.close().catch(() => undefined);
  private readonly onStdoutError = (error: Error) => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close().catch(() => undefined);
  };

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (data.length > 0) {
      const nl = data.indexOf(NEWLINE);
      const part = nl === -1 ? data : data.subarray(0, nl);
      if (this.skipping) this.skippedBytes += part.length;
      else if (this.size + part.length > this.maxBytes) {
        // Start skipping: keep only the first bytes, to find the request id.
        const head = Buffer.concat([...this.chunks, part]).subarray(0, ID_PROBE_BYTES);
        this.skipping = Buffer.from(head);
        this.skippedBytes = this.size + part.length;
        this.chunks = [];
        this.size = 0;
      } else {
        this.chunks.push(part);
        this.size += part.length;
      }
      if (nl === -1) return;
      data = data.subarray(nl + 1);
      this.endLine();
    }
  };

  /** A newline arrived: hand over the buffered line, or answer the skipped one. */
  private endLine(): void {
    if (this.skipping) {
      const id = requestIdFromPrefix(this.skipping.toString('utf8'));
      const mib = (this.maxBytes / (1024 * 1024)).toFixed(0);
      const reason = `Message of ${this.skippedBytes} bytes is larger than the ${mib} MiB limit; it was ignored. Send smaller arguments (queries are accepted up to 200,000 characters).`;
      this.skipping = null;
      this.skippedBytes = 0;
      this.refuse(id, -32600, reason);
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      if (error instanceof SyntaxError) this.refuse(null, -32700, 'Parse error: the line is not valid JSON; send one JSON-RPC message per line.');
      else this.refuse(requestIdFromPrefix(line.slice(0, ID_PROBE_BYTES)), -32600, 'Invalid Request: the JSON is not a JSON-RPC 2.0 message.');
      return;
    }
    this.onmessage?.(message);
  }

  private refuse(id: string | number | null, code: number, message: string): void {
    this.options.onRefused?.(message);
    // An error reply with id null is what JSON-RPC prescribes when the id cannot be determined.
    const reply = { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
    void this.send(reply).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }
}
