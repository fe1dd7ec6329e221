/**
 * Cross-view navigation without import cycles: views ask for "open this
 * code" or "open this file's outline"; the app shell decides how (the code
 * drawer, the Symbols tab). Hash routes keep tabs bookmarkable.
 */

/** A place in the code to open: a file (optionally a span) or a symbol. */
export interface CodeTarget {
  path?: string;
  start?: number;
  end?: number;
  /** Qualified or simple name; highlighted in the span, or located when no span is given. */
  symbol?: string;
}

/** The tabs of the app. */
export type ViewName = 'search' | 'overview' | 'symbols' | 'trace' | 'reports';

export interface Navigator {
  openCode(target: CodeTarget): void;
  openOutline(path: string): void;
  show(view: ViewName, params?: Record<string, string>): void;
}

let current: Navigator | null = null;

/** Installs the app's navigator (once, at start-up). */
export function setNavigator(navigator: Navigator): void {
  current = navigator;
}

/** The installed navigator. */
export function nav(): Navigator {
  if (!current) throw new Error('navigator not installed');
  return current;
}

/** `path:12-30` / `path:12` / `path` → a CodeTarget. */
export function parseSpanText(text: string): CodeTarget | null {
  const match = /^(.+?):(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const start = Number(match[2]);
  return { path: match[1], start, end: match[3] ? Number(match[3]) : start };
}

/** `#/search?q=x` → view and parameters. */
export function parseHash(hash: string): { view: ViewName; params: URLSearchParams } {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const view: ViewName = path === 'overview' || path === 'symbols' || path === 'trace' || path === 'reports' ? path : 'search';
  return { view, params: new URLSearchParams(query) };
}

/** The hash for a view and parameters. */
export function hashFor(view: ViewName, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return `#/${view}${query ? `?${query}` : ''}`;
}
