import { writeFileSync } from 'node:fs';
import { clientTypesPath, generateClientTypes } from './client-types.js';

// Regenerates the client SDK's types from the server's route schemas (see client-types.ts).
const text = await generateClientTypes();
writeFileSync(clientTypesPath, text);
process.stdout.write(`wrote ${clientTypesPath}\n`);
