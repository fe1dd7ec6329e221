/**
 * `POST /webhook` on the team server: a push event (GitHub's shape: `ref`,
 * `after`, `repository` with its name and clone URLs), signed with a shared
 * secret (`X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body>`), is a hint:
 * it makes the server ask git for the tracked branch's real head now (the
 * poller's step, so a commit seen by both is built once). The pushed commit
 * itself is never recorded as the head: a late or out-of-order delivery
 * cannot put back an older commit. The poller stays the safety net for a lost delivery.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from '../zod-mini.js';
import { readBodyText, sendJson } from '../http-api/index.js';
import type { Logger } from '../logger.js';
import { checkHead } from './branch-poller.js';
import { listRepos, type CatalogRepo } from './catalog.js';
import { purgedCommit, purgedText } from './commit-purge.js';
import type { EnqueueOptions, JobQueue } from './job-queue.js';
import type { TeamDatabase } from './pg-database.js';

const MAX_BODY_BYTES = 5 * 1024 * 1024;
const ZERO_COMMIT = /^0{40}$/;

const PushEvent = z.object({
  ref: z.string().check(z.maxLength(500)),
  after: z.string().check(z.regex(/^[0-9a-f]{40}$/i, 'after must be a 40-hex-digit commit id')),
  repository: z.looseObject({
    name: z.optional(z.string().check(z.maxLength(500))),
    full_name: z.optional(z.string().check(z.maxLength(500))),
    clone_url: z.optional(z.string().check(z.maxLength(2000))),
    ssh_url: z.optional(z.string().check(z.maxLength(2000))),
    git_url: z.optional(z.string().check(z.maxLength(2000))),
    html_url: z.optional(z.string().check(z.maxLength(2000))),
    url: z.optional(z.string().check(z.maxLength(2000))),
  }),
});

/** What the webhook needs. */
export interface PushWebhookOptions {
  db: TeamDatabase;
  queue: JobQueue;
  secret: string;
  enqueue?: EnqueueOptions;
  logger: Logger;
}

/** True when `signature` is `sha256=` + the hex HMAC-SHA256 of `body` under `secret` (compared in constant time). */
export function verifySignature(secret: string, body: string, signature: string | undefined): boolean {
  if (!signature || !signature.startsWith('sha256=')) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A URL's comparable form: no scheme or user, no trailing `.git` or slash, lower-case host part. */
function urlKey(url: string): string {
  return url
    .trim()
    .replace(/^[a-z+]+:\/\//i, '')
    .replace(/^[^@/]+@/, '')
    .replace(/^([^/:]+):(?!\d)/, '$1/')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .toLowerCase();
}

/** The catalog repositories an event's `repository` stands for: by name (full or short) or by any of its URLs. */
function matchingRepos(catalog: readonly CatalogRepo[], repository: z.infer<typeof PushEvent>['repository']): CatalogRepo[] {
  const names = [repository.full_name, repository.name].filter((n): n is string => !!n);
  const urls = new Set([repository.clone_url, repository.ssh_url, repository.git_url, repository.html_url, repository.url].filter((u): u is string => !!u).map(urlKey));
  return catalog.filter((r) => names.includes(r.name) || urls.has(urlKey(r.url)));
}

/** Handles one delivery. Answers 202 with what was done, 401 for a bad signature, 404 for a repository not in the catalog. */
export async function handlePushWebhook(options: PushWebhookOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return sendJson(res, 405, { error: 'Deliver push events with POST.' }, { Allow: 'POST' });
  const body = await readBodyText(req, { maxBytes: MAX_BODY_BYTES, route: 'POST /webhook' });
  const signature = req.headers['x-hub-signature-256'];
  if (!verifySignature(options.secret, body, Array.isArray(signature) ? signature[0] : signature)) {
    return sendJson(res, 401, { error: 'Missing or wrong X-Hub-Signature-256 (HMAC-SHA256 of the body with the webhook secret).' });
  }
  const event = req.headers['x-github-event'];
  if (event === 'ping') return sendJson(res, 200, { ok: true });
  if (event !== undefined && event !== 'push') return sendJson(res, 202, { ignored: `event '${String(event).slice(0, 50)}' is not a push` });
  let parsed: z.infer<typeof PushEvent>;
  try {
    const result = PushEvent.safeParse(JSON.parse(body));
    if (!result.success) return sendJson(res, 400, { error: `Not a push event: ${result.error.issues[0].path.join('.')}: ${result.error.issues[0].message}.` });
    parsed = result.data;
  } catch {
    return sendJson(res, 400, { error: 'The body is not JSON.' });
  }
  const matches = matchingRepos(await listRepos(options.db), parsed.repository);
  if (matches.length === 0) return sendJson(res, 404, { error: 'No catalog repository matches this push (by name or clone URL); add it with reponav fleet add.' });
  const commit = parsed.after.toLowerCase();
  const tracked = matches.filter((r) => parsed.ref === `refs/heads/${r.branch}`);
  if (tracked.length === 0) return sendJson(res, 202, { ignored: `${parsed.ref.slice(0, 200)} is not a tracked branch`, repos: matches.map((r) => r.name) });
  if (ZERO_COMMIT.test(commit)) return sendJson(res, 202, { ignored: 'the branch was deleted', repos: tracked.map((r) => r.name) });
  for (const repo of tracked) {
    if (await purgedCommit(options.db, repo.name, commit)) return sendJson(res, 409, { error: purgedText(repo.name, commit) });
  }
  const queued: string[] = [];
  const seen: string[] = [];
  const notHead: { repo: string; head: string }[] = [];
  const unreadable: { repo: string; reason: string }[] = [];
  for (const repo of tracked) {
    const check = await checkHead(options.db, options.queue, repo, { ...options.enqueue, logger: options.logger });
    if (check.error) unreadable.push({ repo: repo.name, reason: check.error });
    else if (check.head !== commit) notHead.push({ repo: repo.name, head: check.head! });
    if (check.enqueued) queued.push(repo.name);
    else if (!check.error && check.head === commit) seen.push(repo.name);
  }
  options.logger.info(`webhook: push of ${commit.slice(0, 12)} to ${tracked.map((r) => r.name).join(', ')}: ${queued.length} queued, ${notHead.length} not the head, ${unreadable.length} unreadable`);
  return sendJson(res, 202, { commit, queued, alreadySeen: seen, ...(notHead.length ? { notHead } : {}), ...(unreadable.length ? { unreadable } : {}) });
}
