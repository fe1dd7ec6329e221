/**
 * The embedder kinds a user can pick, in a module of their own: the CLI lists
 * them in `--help` without loading the embedders (and their HTTP client).
 */
export const EMBEDDER_KINDS = ['openai-compatible', 'local'] as const;
export type EmbedderKind = (typeof EMBEDDER_KINDS)[number];
