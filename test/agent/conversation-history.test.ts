import { describe, expect, it } from 'vitest';
import type { AgentActionRow, AgentMessageRow } from '../../src/agent/agent-tables.js';
import { buildHistory } from '../../src/agent/conversation-history.js';
import { summarizeReply } from '../../src/agent/message-summary.js';
import { buildSystemPrompt } from '../../src/agent/system-prompt.js';

function message(seq: number, turn: string, role: 'user' | 'assistant', content: string, at: string): AgentMessageRow {
  return { seq, id: `msg_${seq}`, session_id: 'ses_1', turn_id: turn, role, content, summary: null, hop: 0, mcp_version: null, usage: null, created_at: at };
}

function action(id: string, messageId: string, status: AgentActionRow['status'], error: string | null = null): AgentActionRow {
  return {
    id, session_id: 'ses_1', message_id: messageId, turn_id: 't1', tool_call_id: 'call_0', hop: 0, type: 'navigate', payload: '{"screen":"orders"}',
    status, error, result_summary: null, created_at: '2026-01-01T00:00:01.000Z', updated_at: '2026-01-01T00:00:01.000Z', expires_at: '2026-01-01T01:00:00.000Z',
  };
}

describe('buildHistory', () => {
  const messages = [
    message(1, 't1', 'user', 'show orders', '2026-01-01T00:00:00.000Z'),
    message(2, 't1', 'assistant', 'Opening.', '2026-01-01T00:00:01.000Z'),
    message(3, 't2', 'user', 'thanks for the help', '2026-01-01T00:10:00.000Z'),
  ];

  it('puts a finished human exchange at its place in time, marked as over', () => {
    const history = buildHistory({
      messages,
      actions: [action('act_1', 'msg_2', 'completed')],
      exchanges: [{
        escalationId: 'esc_1', startedAt: '2026-01-01T00:05:00.000Z', resolvedAt: '2026-01-01T00:08:00.000Z',
        messages: [
          { role: 'user', content: 'my parcel is lost', operatorName: null, createdAt: '2026-01-01T00:05:00.000Z' },
          { role: 'human_agent', content: 'I re-sent it today', operatorName: 'Maya', createdAt: '2026-01-01T00:06:00.000Z' },
        ],
      }],
    });
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'user']);
    const marker = history[3]!.content as string;
    expect(marker).toContain('human operator');
    expect(marker).toContain('Human operator (Maya): I re-sent it today');
    expect(marker).toContain('The human part has ended');
    expect(history[4]!.content).toBe('thanks for the help');
    expect(history[1]!.content).toEqual([
      { type: 'text', text: 'Opening.' },
      { type: 'tool-call', toolCallId: 'act_1', toolName: 'navigate', input: { screen: 'orders' } },
    ]);
  });

  it('tells the model about unreported and failed actions', () => {
    const pending = buildHistory({ messages: messages.slice(0, 2), actions: [action('act_1', 'msg_2', 'pending')], exchanges: [] });
    expect(pending[2]).toMatchObject({ role: 'tool', content: [{ output: { type: 'json', value: { status: 'not reported yet' } } }] });
    const failed = buildHistory({ messages: messages.slice(0, 2), actions: [action('act_1', 'msg_2', 'failed', 'timeout')], exchanges: [] });
    expect(failed[2]).toMatchObject({ content: [{ output: { value: { status: 'failed', error: 'timeout' } } }] });
  });

  it('drops whole turns oldest first over the budget, always keeping the current one', () => {
    const history = buildHistory({ messages, actions: [], exchanges: [] }, 5);
    expect(history).toEqual([{ role: 'user', content: 'thanks for the help' }]);
  });
});

describe('summarizeReply', () => {
  it('keeps the first sentence and names the actions', () => {
    expect(summarizeReply('Sure! I will open it. Then more.', [{ type: 'navigate', payload: { screen: 'cart' } }])).toBe('Sure! Actions: navigate to cart.');
    expect(summarizeReply('', [{ type: 'escalate', payload: {} }])).toBe('Actions: escalate.');
    expect(summarizeReply('x'.repeat(500), [])).toHaveLength(140);
    expect(summarizeReply('  ', [])).toBe('No reply text.');
  });
});

describe('buildSystemPrompt', () => {
  it('calls out currentScreen and lists the actions', () => {
    const prompt = buildSystemPrompt({
      personaPrompt: null, assistantName: null, locale: null, context: { currentScreen: 'home' },
      actionTypes: [{ type: 'navigate', description: 'Open a screen', payloadSchema: {} }],
    });
    expect(prompt).toContain('currently on the screen "home"');
    expect(prompt).toContain('- navigate: Open a screen');
  });
});
