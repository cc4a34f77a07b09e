import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random base62 string carrying `bytes * 8` bits (rejection sampling keeps it unbiased). */
export function randomToken(bytes = 32): string {
  const wanted = Math.ceil((bytes * 8) / Math.log2(62));
  let out = '';
  while (out.length < wanted) {
    for (const byte of randomBytes(wanted * 2)) {
      if (byte < 248 && out.length < wanted) out += base62[byte % 62];
    }
  }
  return out;
}

/**
 * API keys and user tokens carry 256 random bits, so a fast SHA-256 is a safe
 * lookup hash (no dictionary to attack) and keeps auth off the hot path's budget.
 */
export function sha256Hex(value: string): string {
  // The one-shot crypto.hash (Node ≥ 20.12): a quarter of createHash's cost, paid by every authenticated request.
  return hash('sha256', value, 'hex');
}

const scryptParams = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** Passwords are low-entropy, so they get a slow, salted hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, scryptParams);
  return `scrypt$${scryptParams.N}$${scryptParams.r}$${scryptParams.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: scryptParams.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
