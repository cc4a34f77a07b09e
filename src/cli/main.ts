import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.js';
import { CliError } from './cli-error.js';
import { commands, type Command } from './commands.js';

const usage = `usage: parley <command> [options]

commands:
${Object.entries(commands).map(([name, command]) => `  ${name.padEnd(28)}${command.summary}`).join('\n')}

Settings come from the environment (PORT, HOST, DATABASE_URL, REDIS_URL, …): see README.md.`;

export { CliError };

/** Runs one CLI invocation; returns the exit code. Errors are one line on stderr. */
export async function runCli(argv: string[]): Promise<number> {
  const [first, second, ...rest] = argv;
  if (!first || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(`${usage}\n`);
    return first ? 0 : 2;
  }
  const twoWord = second !== undefined ? commands[`${first} ${second}`] : undefined;
  const command: Command | undefined = twoWord ?? commands[first];
  if (!command) {
    process.stderr.write(`parley: unknown command "${first}"; run parley --help\n`);
    return 2;
  }
  const args = twoWord ? rest : [second, ...rest].filter((a): a is string => a !== undefined);
  try {
    const { values, positionals } = parseArgs({ args, options: command.options ?? {}, allowPositionals: command.positionals ?? false, strict: true });
    const config = loadConfig();
    return await command.run({ config, values, positionals });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const prefix = error instanceof ConfigError ? 'parley: configuration error: ' : 'parley: ';
    process.stderr.write(`${prefix}${message}\n`);
    return error instanceof ConfigError || isArgumentError(error) ? 2 : 1;
  }
}

function isArgumentError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof CliError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
}
