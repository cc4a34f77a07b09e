import type { ModelMessage, ToolResultPart } from 'ai';
import type { HumanExchange } from '../escalations/handback.js';
import type { AgentActionRow, AgentMessageRow } from './agent-tables.js';

/**
 * History sent with each model call, in estimated tokens. Tokens are estimated as
 * characters / 4 (close enough for English and JSON across tokenizers, and free to
 * compute); when the history is larger, whole turns are dropped oldest first, and
 * the current turn is always kept.
 */
export const historyTokenBudget = 12_000;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

interface Unit {
  at: string;
  messages: ModelMessage[];
}

/** What the model is told about an action's outcome. */
export function actionOutcome(action: AgentActionRow): { status: string; error?: string; summary?: string } {
  if (action.status === 'completed') return { status: 'completed', ...(action.result_summary ? { summary: action.result_summary } : {}) };
  if (action.status === 'failed') return { status: 'failed', error: action.error ?? 'failed', ...(action.result_summary ? { summary: action.result_summary } : {}) };
  return { status: 'not reported yet' };
}

// The action id stands in for the provider's tool call id: unique across the whole session,
// which provider ids (and the demo model's) are not guaranteed to be.
function toolResult(action: AgentActionRow): ToolResultPart {
  return { type: 'tool-result', toolCallId: action.id, toolName: action.type, output: { type: 'json', value: actionOutcome(action) } };
}

function humanExchangeMessage(exchange: HumanExchange): ModelMessage {
  const lines = exchange.messages.map((m) => (m.role === 'human_agent' ? `Human operator${m.operatorName ? ` (${m.operatorName})` : ''}: ${m.content}` : `User: ${m.content}`));
  return {
    role: 'user',
    content: [
      `[Handled by a human operator from ${exchange.startedAt} to ${exchange.resolvedAt}. Transcript:`,
      ...lines,
      '[The human part has ended. The operator has handed the conversation back to you; you are the assistant again.]',
    ].join('\n'),
  };
}

/**
 * The model's view of a session: user messages, assistant replies with their tool
 * calls, a tool result for every action (as the app reported it), and each finished
 * human exchange at its place in time.
 */
export function buildHistory(input: { messages: AgentMessageRow[]; actions: AgentActionRow[]; exchanges: HumanExchange[] }, budget = historyTokenBudget): ModelMessage[] {
  const actionsByMessage = new Map<string, AgentActionRow[]>();
  for (const action of input.actions) {
    const list = actionsByMessage.get(action.message_id) ?? [];
    list.push(action);
    actionsByMessage.set(action.message_id, list);
  }

  const units: Unit[] = [];
  const byTurn = new Map<string, Unit>();
  for (const message of input.messages) {
    let unit = byTurn.get(message.turn_id);
    if (!unit) {
      unit = { at: message.created_at, messages: [] };
      byTurn.set(message.turn_id, unit);
      units.push(unit);
    }
    if (message.role === 'user') {
      unit.messages.push({ role: 'user', content: message.content });
      continue;
    }
    const actions = actionsByMessage.get(message.id) ?? [];
    unit.messages.push({
      role: 'assistant',
      content: [
        ...(message.content === '' ? [] : [{ type: 'text' as const, text: message.content }]),
        ...actions.map((a) => ({ type: 'tool-call' as const, toolCallId: a.id, toolName: a.type, input: JSON.parse(a.payload) as unknown })),
      ],
    });
    if (actions.length > 0) unit.messages.push({ role: 'tool', content: actions.map(toolResult) });
  }
  for (const exchange of input.exchanges) units.push({ at: exchange.startedAt, messages: [humanExchangeMessage(exchange)] });
  // Stable sort: an exchange and a turn at the same instant keep their insertion order.
  units.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));

  const sizes = units.map((unit) => estimateTokens(JSON.stringify(unit.messages)));
  let total = sizes.reduce((sum, size) => sum + size, 0);
  let first = 0;
  while (total > budget && first < units.length - 1) {
    total -= sizes[first] ?? 0;
    first++;
  }
  return units.slice(first).flatMap((unit) => unit.messages);
}
