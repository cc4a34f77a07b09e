/** `npm run bench -- <name>` runs bench/<name>.ts (e.g. `npm run bench -- platform`). */
const name = process.argv[2];
if (!name || !/^[a-z0-9-]+$/.test(name)) {
  process.stderr.write('usage: npm run bench -- <name>   (e.g. platform)\n');
  process.exit(2);
}
await import(`./${name}.ts`);
