import type { ApiKeyTables } from '../keys/key-tables.js';
import type { ProjectTables } from '../projects/project-tables.js';
import type { SessionTables } from '../sessions/session-tables.js';
import type { UserTables } from '../users/user-tables.js';
import type { WorkspaceTables } from '../workspaces/workspace-tables.js';
import type { EndUserTables } from '../identify/end-user-tables.js';
import type { PromptTables } from '../prompts/prompt-tables.js';
import type { AgentTables } from '../agent/agent-tables.js';
import type { EscalationTables } from '../escalations/escalation-tables.js';
import type { WebhookTables } from '../webhooks/webhook-tables.js';

/** The whole schema, composed from each feature's own table types. */
export interface Tables extends WorkspaceTables, ProjectTables, ApiKeyTables, UserTables, SessionTables, EndUserTables, PromptTables, AgentTables, EscalationTables, WebhookTables {}
