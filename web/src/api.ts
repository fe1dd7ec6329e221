/**
 * The page's side of the JSON API. Every failure becomes an ApiFailure with
 * the server's one-sentence message, so views can show it as it is; while
 * the repository is being indexed (503 INDEXING) calls wait and retry.
 */
import type { AnsweredFrom, ApiErrorBody } from '../../src/http-api/api-types.js';

/** A failed API call: the message to show and the status behind it. */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

/** Called while a call waits for indexing, with the server's message. */
export type WaitListener = (message: string | null) => void;

let waitListener: WaitListener = () => undefined;

/** Where "still indexing" notices go (the app shows them in its status bar). */
export function onIndexingWait(listener: WaitListener): void {
  waitListener = listener;
}

const MAX_INDEX_RETRIES = 150;

/** Parameters sent with every call (the team server's repository and pinned commit). */
let scope: Record<string, string> = {};
let answeredListener: (answered: AnsweredFrom) => void = () => undefined;
let lastAnswered: AnsweredFrom | null = null;

/** Sends `params` with every later call (explicit parameters of a call win). */
export function setApiScope(params: Record<string, string>): void {
  scope = { ...params };
}

/** Told which repository and commit answered, whenever an answer says so (team server), starting with the last one. */
export function onAnswered(listener: (answered: AnsweredFrom) => void): void {
  answeredListener = listener;
  if (lastAnswered) listener(lastAnswered);
}

async function send<T>(url: string, init: RequestInit): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch {
      throw new ApiFailure('The server did not answer. Is `reponav ui` still running?', 0, 'NETWORK');
    }
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      // Not JSON: reported below with the status.
    }
    if (response.ok) {
      waitListener(null);
      const answered = (body as { answeredFrom?: AnsweredFrom } | null)?.answeredFrom;
      if (answered) {
        lastAnswered = answered;
        answeredListener(answered);
      }
      return body as T;
    }
    if (response.status === 401) {
      // The team server's session ended (or the token was revoked): sign in again.
      location.assign('login');
      throw new ApiFailure('Signed out; sign in again.', 401, 'UNAUTHORIZED');
    }
    const error = (body ?? {}) as Partial<ApiErrorBody>;
    if (response.status === 503 && error.code === 'INDEXING' && attempt < MAX_INDEX_RETRIES) {
      waitListener(error.error ?? 'Indexing the repository…');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      continue;
    }
    waitListener(null);
    const message = typeof error.error === 'string' ? error.error : `The server answered ${response.status} ${response.statusText}.`;
    throw new ApiFailure(message, response.status, error.code);
  }
}

/** `GET /api/<path>?params`. Empty parameters are left out. */
export function apiGet<T>(path: string, params: Record<string, string | number | undefined | null> = {}): Promise<T> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...scope, ...params })) if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  const qs = query.toString();
  return send<T>(`api/${path}${qs ? `?${qs}` : ''}`, { headers: { Accept: 'application/json' } });
}

/** `POST /api/<path>` with a JSON document (an uploaded file's text) and its name. */
export function apiPostDocument<T>(path: string, text: string, fileName: string): Promise<T> {
  return send<T>(`api/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-File-Name': encodeURIComponent(fileName) },
    body: text,
  });
}

/** The message of anything thrown, for showing in the page. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
