/**
 * The search's setting schemas (schema.ts), an entry of their own: the
 * evaluation harness and `searchWithTuning` load them on demand, so the
 * package's entries and the hot commands, which take no tuning, never do.
 */
export { checkTunedOptions, MOVED_TUNING_KEYS, settingIssueMessage, tuningSchemas } from './schema.js';
