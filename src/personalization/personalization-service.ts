import type { Db } from '../db/database.js';
import { channels, type EventBus } from '../events/event-bus.js';
import { nowIso } from '../shared/time.js';
import { personalizationFromJson, personalizationToJson, type Personalization, type PersonalizationInput } from './personalization-schema.js';

/**
 * Saves a project's personalization (the whole document: omitted fields become
 * unset) and announces it, so every instance's cache drops the old one at once.
 */
export async function savePersonalization(db: Db, bus: EventBus, projectId: string, input: PersonalizationInput): Promise<Personalization> {
  const json = personalizationToJson(input);
  await db.updateTable('projects').set({ personalization: json, updated_at: nowIso() }).where('id', '=', projectId).execute();
  await publishPersonalizationSaved(bus, projectId);
  return personalizationFromJson(json);
}

export async function publishPersonalizationSaved(bus: EventBus, projectId: string): Promise<void> {
  await bus.publish(channels.personalizationSaved, { projectId });
}
