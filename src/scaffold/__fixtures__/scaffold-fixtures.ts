/**
 * Hand-built inputs for the scaffold tests: a Python-ish example (a yt-dlp-like
 * signature bug) and a TypeScript-ish one (an HTTP client retry bug). Only the
 * tests import this module.
 */
import type { CodeSymbol, ImportRecord, SymbolKind } from '../../parse/symbol-model.js';
import type { ChunkHit, ChunkKind, FileCandidate, RetrievalResult } from '../../retrieve/retrieval-types.js';
import type { SkeletonInput } from '../render-skeleton.js';
import type { ScaffoldFile } from '../scaffold-types.js';

/** A CodeSymbol from the fields a test cares about; `name`/`parent` derive from the qualified name. */
export function sym(
  qualifiedName: string,
  kind: SymbolKind,
  startLine: number,
  endLine: number,
  extra: Partial<CodeSymbol> = {},
): CodeSymbol {
  const dot = qualifiedName.lastIndexOf('.');
  return {
    name: dot < 0 ? qualifiedName : qualifiedName.slice(dot + 1),
    qualifiedName,
    kind,
    parent: dot < 0 ? null : qualifiedName.slice(0, dot),
    startLine,
    endLine,
    signature: '',
    doc: null,
    callees: [],
    bases: [],
    ...extra,
  };
}

let nextChunkId = 1;

/** A ChunkHit; chunk ids are unique per process, which is all the renderers need. */
export function hit(path: string, symbol: string | null, startLine: number, endLine: number, score: number, kind?: ChunkKind): ChunkHit {
  return {
    chunkId: nextChunkId++,
    path,
    kind: kind ?? (symbol === null ? 'file' : 'function'),
    symbol,
    startLine,
    endLine,
    score,
  };
}

/** Builds a RetrievalResult whose files carry their own hits (best first), as stage 1 does. */
export function result(query: string, queryTokens: string[], hits: ChunkHit[], fileScores: Array<[string, number]>): RetrievalResult {
  const sorted = [...hits].sort((a, b) => b.score - a.score);
  const files: FileCandidate[] = fileScores.map(([path, score]) => ({ path, score, hits: sorted.filter((h) => h.path === path) }));
  return { query, queryTokens, hits: sorted, files };
}

export function fileMap(files: ScaffoldFile[]): Map<string, ScaffoldFile> {
  return new Map(files.map((f) => [f.path, f]));
}

// ---------------------------------------------------------------- Python example

const YT = 'yt_dlp/extractor/youtube.py';
const JSI = 'yt_dlp/jsinterp.py';
const COMMON = 'yt_dlp/extractor/common.py';
const YDL = 'yt_dlp/YoutubeDL.py';
const TEST_SIG = 'test/test_youtube_signature.py';
const UTILS = 'yt_dlp/utils/_utils.py';

export const pythonResult: RetrievalResult = result(
  'signature decrypt fails after youtube player update',
  ['signature', 'decrypt', 'fails', 'after', 'youtube', 'player', 'update'],
  [
    hit(YT, 'YoutubeIE._extract_signature_function', 2801, 2850, 9.0),
    hit(YT, 'YoutubeIE._decrypt_signature', 2910, 2940, 8.2),
    hit(JSI, 'JSInterpreter.extract_function', 820, 870, 6.4),
    hit(YT, 'YoutubeIE._load_player', 2730, 2760, 6.0),
    hit(YT, 'YoutubeIE._parse_sig_js', 2860, 2900, 5.5),
    hit(COMMON, 'InfoExtractor._extract_player_config', 900, 930, 4.9),
    hit(JSI, 'JSInterpreter.interpret_statement', 300, 700, 4.0),
    hit(TEST_SIG, 't_factory', 250, 270, 3.8),
    hit(YT, null, 1, 60, 3.0),
    hit(YDL, 'YoutubeDL.process_info', 2900, 3100, 2.9),
    hit(YT, 'YoutubeIE', 1300, 1340, 2.5, 'class'),
    hit(YT, 'YoutubeIE._real_extract', 3500, 3990, 2.4),
    hit(UTILS, 'js_to_json', 2600, 2680, 2.0),
    hit(YT, 'YoutubeIE._signature_cache_id', 2780, 2790, 1.9),
  ],
  [
    [YT, 9.1],
    [JSI, 6.5],
    [COMMON, 5.0],
    [YDL, 3.0],
    [TEST_SIG, 2.9],
    [UTILS, 2.0],
  ],
);

const ytSymbols: CodeSymbol[] = [
  sym('YoutubeBaseInfoExtractor', 'class', 300, 1200, { signature: 'class YoutubeBaseInfoExtractor(InfoExtractor):', bases: ['InfoExtractor'] }),
  sym('YoutubeBaseInfoExtractor._call_api', 'method', 400, 450, { callees: ['self._download_json'] }),
  sym('YoutubeIE', 'class', 1300, 4000, { signature: 'class YoutubeIE(YoutubeBaseInfoExtractor):', bases: ['YoutubeBaseInfoExtractor'] }),
  sym('YoutubeIE._extract_player_url', 'method', 2700, 2720, { callees: ['self._search_regex'] }),
  sym('YoutubeIE._load_player', 'method', 2730, 2760, { callees: ['self._extract_player_url', 'self._download_webpage'] }),
  sym('YoutubeIE._signature_cache_id', 'method', 2780, 2790),
  sym('YoutubeIE._extract_signature_function', 'method', 2801, 2850, {
    callees: ['self._parse_sig_js', 'self._load_player', 'self._signature_cache_id', 'self.cache.load'],
  }),
  sym('YoutubeIE._parse_sig_js', 'method', 2860, 2900, { callees: ['JSInterpreter', 'self._search_regex'] }),
  sym('YoutubeIE._decrypt_signature', 'method', 2910, 2940, { callees: ['self._extract_signature_function'] }),
  sym('YoutubeIE._real_extract', 'method', 3500, 3990, { callees: ['self._decrypt_signature', 'self._load_player', 'self._call_api'] }),
];

export const pythonFiles: Map<string, ScaffoldFile> = fileMap([
  {
    path: YT,
    symbols: ytSymbols,
    importedBy: ['yt_dlp/extractor/_extractors.py', YDL, TEST_SIG, 'yt_dlp/extractor/youtube_live.py', 'devscripts/update.py'],
  },
  {
    path: JSI,
    symbols: [
      sym('JSInterpreter', 'class', 200, 1000, { signature: 'class JSInterpreter:' }),
      sym('JSInterpreter.interpret_statement', 'method', 300, 700, { callees: ['self.interpret_expression'] }),
      sym('JSInterpreter.interpret_expression', 'method', 710, 760, { callees: ['self.interpret_statement'] }),
      sym('JSInterpreter.extract_object', 'method', 770, 810),
      sym('JSInterpreter.extract_function', 'method', 820, 870, { callees: ['self.extract_function_code', 'self.build_function'] }),
      sym('JSInterpreter.extract_function_code', 'method', 872, 890),
      sym('JSInterpreter.build_function', 'method', 900, 960, { callees: ['self.interpret_statement'] }),
      sym('js_number_to_string', 'function', 100, 140),
      sym('JS_Undefined', 'class', 60, 62),
    ],
    importedBy: [YT, 'yt_dlp/extractor/common.py', 'test/test_jsinterp.py'],
  },
  {
    path: COMMON,
    symbols: [
      sym('InfoExtractor', 'class', 100, 3900),
      sym('InfoExtractor._download_webpage', 'method', 1000, 1080),
      sym('InfoExtractor._search_regex', 'method', 1200, 1260),
      sym('InfoExtractor._extract_player_config', 'method', 900, 930, { callees: ['self._search_regex'] }),
      sym('InfoExtractor.extract', 'method', 700, 760, { callees: ['self._real_extract'] }),
    ],
    importedBy: [YT],
  },
  { path: YDL, symbols: [sym('YoutubeDL', 'class', 200, 4200)], importedBy: ['yt_dlp/__init__.py'] },
  { path: TEST_SIG, symbols: [sym('t_factory', 'function', 250, 270)], importedBy: [] },
]);

// ---------------------------------------------------------------- TypeScript example

const CLIENT = 'src/http/client.ts';
const POLICY = 'src/http/retry-policy.ts';
const ERRORS = 'src/http/errors.ts';
const INDEX = 'src/index.ts';
const CLIENT_TEST = 'test/http/client.test.ts';

export const typescriptResult: RetrievalResult = result(
  'retry request with exponential backoff on 429',
  ['retry', 'request', 'exponential', 'backoff', '429', 'on'],
  [
    hit(CLIENT, 'HttpClient.sendWithRetry', 40, 78, 8.0),
    hit(POLICY, 'parseRetryAfter', 30, 48, 7.1),
    hit(CLIENT, 'HttpClient.computeExponentialBackoff', 80, 90, 7.0),
    hit(POLICY, 'shouldRetry', 12, 28, 6.2),
    hit(ERRORS, 'RateLimitError', 20, 34, 5.0, 'class'),
    hit(CLIENT, 'HttpClient.request', 20, 38, 3.0),
    hit(CLIENT_TEST, null, 1, 80, 2.8),
    hit(INDEX, null, 1, 12, 1.5),
    hit(CLIENT, 'isRetryableStatus', 100, 104, 1.4),
  ],
  [
    [CLIENT, 7.8],
    [POLICY, 6.9],
    [ERRORS, 4.0],
    [CLIENT_TEST, 2.8],
    [INDEX, 1.5],
  ],
);

export const typescriptFiles: Map<string, ScaffoldFile> = fileMap([
  {
    path: CLIENT,
    symbols: [
      sym('RequestOptions', 'interface', 5, 12, { signature: 'export interface RequestOptions {' }),
      sym('HttpClient', 'class', 14, 96, { signature: 'export class HttpClient {' }),
      sym('HttpClient.request', 'method', 20, 38, { callees: ['this.sendWithRetry'] }),
      sym('HttpClient.sendWithRetry', 'method', 40, 78, {
        callees: ['fetch', 'isRetryableStatus', 'this.computeExponentialBackoff', 'sleep'],
      }),
      sym('HttpClient.computeExponentialBackoff', 'method', 80, 90, { callees: ['Math.min', 'Math.random'] }),
      sym('HttpClient.get', 'method', 91, 93, { callees: ['this.request'] }),
      sym('HttpClient.post', 'method', 94, 95, { callees: ['this.request'] }),
      sym('isRetryableStatus', 'function', 100, 104),
    ],
    importedBy: [INDEX, CLIENT_TEST, 'src/api/users.ts'],
  },
  {
    path: POLICY,
    symbols: [
      sym('RetryPolicy', 'interface', 3, 10),
      sym('shouldRetry', 'function', 12, 28),
      sym('parseRetryAfter', 'function', 30, 48, { callees: ['Date.parse', 'Number'] }),
      sym('delayFor', 'function', 50, 60, { callees: ['parseRetryAfter'] }),
    ],
    importedBy: [CLIENT],
  },
  {
    path: ERRORS,
    symbols: [sym('HttpError', 'class', 3, 18), sym('RateLimitError', 'class', 20, 34), sym('toHttpError', 'function', 36, 50)],
    importedBy: [CLIENT, POLICY],
  },
  { path: CLIENT_TEST, symbols: [], importedBy: [] },
  { path: INDEX, symbols: [], importedBy: [] },
]);

/** Deterministic fake source: every line names its file and number, so snippet goldens show which lines were read. */
export function fakeReadLines(path: string, startLine: number, endLine: number): string[] {
  const out: string[] = [];
  for (let line = startLine; line <= endLine; line++) out.push(`# ${path.split('/').pop()} line ${line}`);
  return out;
}

// ---------------------------------------------------------------- skeleton inputs

const modelImports: ImportRecord[] = [
  { source: 'os', names: [], line: 1 },
  { source: 'typing', names: ['List', 'Optional'], line: 2 },
  { source: '.base', names: ['Base'], line: 3 },
];

export const pythonSkeletonInput: SkeletonInput = {
  path: 'pkg/models.py',
  language: 'python',
  lineCount: 120,
  status: 'ok',
  errorCount: 0,
  imports: modelImports,
  symbols: [
    sym('Model', 'class', 10, 80, { signature: 'class Model(Base):', doc: 'A trainable model.', bases: ['Base'] }),
    sym('Model.__init__', 'method', 12, 20, { signature: 'def __init__(self, x):', doc: 'Create a model.' }),
    sym('Model.run', 'method', 22, 80, { signature: 'def run(self) -> List[int]:' }),
    sym('Model.run.step', 'function', 30, 40, { signature: 'def step(i):' }),
    sym('helper', 'function', 85, 90, { signature: 'def helper(a, b):' }),
  ],
};

export const typescriptSkeletonInput: SkeletonInput = {
  path: 'src/http/client.ts',
  language: 'typescript',
  lineCount: 104,
  status: 'partial',
  errorCount: 2,
  imports: [
    { source: './retry-policy', names: ['shouldRetry', 'RetryPolicy'], line: 2 },
    { source: 'node:timers/promises', names: ['setTimeout'], line: 1 },
    { source: './errors', names: [], line: 3 },
  ],
  symbols: [
    sym('HttpClient', 'class', 14, 96, { signature: 'export class HttpClient {', doc: 'Minimal fetch wrapper with retries.' }),
    sym('RequestOptions', 'interface', 5, 12, { signature: 'export interface RequestOptions {' }),
    sym('HttpClient.request', 'method', 20, 38, { signature: 'async request(url: string, options: RequestOptions = {}): Promise<Response> {' }),
    sym('HttpClient.sendWithRetry', 'method', 40, 78, {
      signature: 'private async sendWithRetry(url: string, init: RequestInit, attempt = 0): Promise<Response> {',
      doc: 'Sends once, then retries retryable statuses with exponential backoff until the policy gives up.',
    }),
    sym('isRetryableStatus', 'function', 100, 104, { signature: 'function isRetryableStatus(status: number): boolean {' }),
  ],
};
