import { randomFillSync } from 'node:crypto';

/** Type prefixes make an id's kind visible in logs, URLs and support tickets. */
export type IdPrefix =
  | 'ws' | 'prj' | 'key' | 'usr' | 'utk' | 'ses' | 'eus' | 'msg' | 'act' | 'esc' | 'emsg' | 'evt' | 'whk' | 'dlv' | 'trn';

const crockford = '0123456789abcdefghjkmnpqrstvwxyz';

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = crockford[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

// One system call fills 4 KiB of randomness for 400 ids, instead of one call per id
// (that call was 7% of the CPU time of POST /agent/session).
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomChunk(): Buffer {
  if (poolOffset + 10 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const chunk = pool.subarray(poolOffset, poolOffset + 10);
  poolOffset += 10;
  return chunk;
}

/**
 * `prefix_` + a ULID-like body: 10 chars of millisecond time then 16 random
 * chars (80 bits). Ids sort by creation time, which keeps indexes append-mostly
 * and gives cursor pagination a stable order.
 */
export function newId(prefix: IdPrefix): string {
  const random = randomChunk();
  let body = '';
  for (let i = 0; i < 16; i++) {
    // 10 bytes = 80 bits = 16 symbols of 5 bits.
    const bit = i * 5;
    const byte = bit >> 3;
    const offset = bit & 7;
    const word = ((random[byte] ?? 0) << 8) | (random[byte + 1] ?? 0);
    body += crockford[(word >> (11 - offset)) & 31];
  }
  return `${prefix}_${encodeTime(Date.now())}${body}`;
}
