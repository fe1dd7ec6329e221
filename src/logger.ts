/**
 * One injected logger. Library code never writes to stdout (stdio MCP owns it);
 * the default logger writes to stderr and is silent below its level.
 */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

/** A logger that writes `[reponav] level: message` lines to `stream` (default: stderr) at or above `level`. */
export function createStderrLogger(level: LogLevel = 'info', stream: { write(text: string): unknown } = process.stderr): Logger {
  const emit = (at: Exclude<LogLevel, 'silent'>) => (message: string) => {
    if (ORDER[at] >= ORDER[level]) stream.write(`[reponav] ${at}: ${message}\n`);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** A logger that drops everything (tests, embedding in other tools). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
