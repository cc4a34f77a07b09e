import { randomToken, sha256Hex } from '../shared/secrets.js';

export const apiKeyPattern = /^ak_[0-9A-Za-z]{20,100}$/;

/** A new key: `ak_` + 43 base62 characters (256 random bits). */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = `ak_${randomToken(32)}`;
  return { key, prefix: key.slice(0, 11), hash: sha256Hex(key) };
}
