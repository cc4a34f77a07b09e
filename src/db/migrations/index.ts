import type { Migration } from 'kysely';
import * as platform from './0001-platform.js';
import * as prompts from './0002-prompts.js';
import * as agent from './0003-agent.js';
import * as escalations from './0004-escalations.js';

/**
 * Every migration, by name. Names sort in the order they must run; a shipped
 * migration is never edited: add a new one instead.
 */
export const migrations: Record<string, Migration> = {
  '0001-platform': platform,
  '0002-prompts': prompts,
  '0003-agent': agent,
  '0004-escalations': escalations,
};
