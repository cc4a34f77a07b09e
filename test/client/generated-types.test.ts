import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientTypesPath, generateClientTypes } from '../../scripts/client-types.js';

describe('the client SDK types', () => {
  it('match the server route schemas (run `npm run generate:client` when this fails)', async () => {
    const committed = readFileSync(clientTypesPath, 'utf8');
    expect(committed === (await generateClientTypes()), `${clientTypesPath} is stale: run npm run generate:client`).toBe(true);
  });
});
