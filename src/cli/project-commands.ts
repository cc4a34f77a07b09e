import { readFileSync } from 'node:fs';
import type { Config } from '../config/config.js';
import { PersonalizationInput } from '../personalization/personalization-schema.js';
import { findProject } from '../projects/project-repository.js';
import { updateProjectSettings, type ProjectSettings } from '../projects/project-settings.js';
import { CliError } from './cli-error.js';
import { stringOption, withDatabase, type Command, type CommandInput } from './command-support.js';
import { requiredOption, withBus } from './key-commands.js';
import { checkAgainstSchema } from './schema-check.js';

/** Applies settings through the same service as the admin API (validation, bus announcements). */
async function applySettings(config: Config, projectId: string, settings: ProjectSettings): Promise<void> {
  await withDatabase(config, async (database) => {
    const project = await findProject(database.db, projectId);
    if (!project) throw new CliError(`project ${projectId} not found`);
    await withBus(config, (bus) => updateProjectSettings(database.db, bus, project.workspace_id, projectId, settings));
  });
}

/** Exactly one of --<inline> or --file, as text. */
function textFrom(values: CommandInput['values'], inline: string): string {
  const text = stringOption(values, inline);
  const file = stringOption(values, 'file');
  if ((text === undefined) === (file === undefined)) throw new CliError(`give exactly one of --${inline} or --file`);
  if (text !== undefined) return text;
  try {
    return readFileSync(file as string, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

export const projectSetModel: Command = {
  summary: "set a project's model: --project-id P --model PROVIDER:MODEL [--model-base-url URL] [--model-api-key KEY]",
  options: { 'project-id': { type: 'string' }, model: { type: 'string' }, 'model-base-url': { type: 'string' }, 'model-api-key': { type: 'string' } },
  async run({ config, values }) {
    const projectId = requiredOption(values, 'project-id');
    const model = requiredOption(values, 'model');
    const settings: ProjectSettings = { model, modelBaseUrl: stringOption(values, 'model-base-url') ?? null };
    const apiKey = stringOption(values, 'model-api-key');
    if (apiKey !== undefined) settings.modelApiKey = apiKey;
    await applySettings(config, projectId, settings);
    process.stdout.write(`project ${projectId} now uses ${model}\n`);
    return 0;
  },
};

export const projectSetPersona: Command = {
  summary: "set a project's persona prompt (never shown again): --project-id P (--text T | --file F)",
  options: { 'project-id': { type: 'string' }, text: { type: 'string' }, file: { type: 'string' } },
  async run({ config, values }) {
    const projectId = requiredOption(values, 'project-id');
    const persona = textFrom(values, 'text').trim();
    if (persona.length > 20_000) throw new CliError('the persona prompt must be at most 20000 characters');
    await applySettings(config, projectId, { personaPrompt: persona === '' ? null : persona });
    process.stdout.write(persona === '' ? `persona prompt of ${projectId} cleared\n` : `persona prompt of ${projectId} set (${persona.length} characters)\n`);
    return 0;
  },
};

export const projectSetPersonalization: Command = {
  summary: "replace a project's personalization: --project-id P (--json '{…}' | --file F)",
  options: { 'project-id': { type: 'string' }, json: { type: 'string' }, file: { type: 'string' } },
  async run({ config, values }) {
    const projectId = requiredOption(values, 'project-id');
    let document: unknown;
    try {
      document = JSON.parse(textFrom(values, 'json'));
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError('personalization is not valid JSON');
    }
    checkAgainstSchema(PersonalizationInput, document, 'personalization');
    await applySettings(config, projectId, { personalization: document as PersonalizationInput });
    process.stdout.write(`personalization of ${projectId} saved\n`);
    return 0;
  },
};
