import {
  type FakeUpstream,
  type FakeUpstreamDialect,
  type RenderContext,
  type ScriptedReply,
  splitInPieces,
  startFakeUpstream,
  wordPieces,
} from './fake-upstream-server.js';

/*
 * Anthropic Messages API wire protocol: `POST /v1/messages` (also `/messages`), streamed
 * as named SSE events message_start, content_block_start, content_block_delta
 * (text_delta / input_json_delta), content_block_stop, message_delta, message_stop.
 */

export interface AnthropicRequestBody {
  model: string;
  system?: unknown;
  messages: Array<{ role: 'user' | 'assistant'; content: unknown }>;
  tools?: Array<{ name: string; description?: string; input_schema: unknown }>;
  tool_choice?: unknown;
  max_tokens?: number;
  stream?: boolean;
  [key: string]: unknown;
}

function requestBody(context: RenderContext): Partial<AnthropicRequestBody> {
  const body = context.request.body;
  return typeof body === 'object' && body !== null ? (body as Partial<AnthropicRequestBody>) : {};
}

function toolUseId(reply: ScriptedReply, context: RenderContext, position: number): string {
  return reply.toolCalls?.[position]?.id ?? `toolu_${context.index}_${position}`;
}

function stopReason(reply: ScriptedReply): string {
  return reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn');
}

const anthropicDialect: FakeUpstreamDialect = {
  paths: ['/v1/messages', '/messages'],

  isStreaming(body) {
    return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
  },

  renderJson(reply, context) {
    const content: unknown[] = [];
    if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
    (reply.toolCalls ?? []).forEach((call, position) => {
      content.push({ type: 'tool_use', id: toolUseId(reply, context, position), name: call.name, input: call.args });
    });
    return {
      id: `msg_fake_${context.index}`,
      type: 'message',
      role: 'assistant',
      model: requestBody(context).model ?? 'fake-model',
      content,
      stop_reason: stopReason(reply),
      stop_sequence: null,
      usage: { input_tokens: context.usage.inputTokens, output_tokens: context.usage.outputTokens },
    };
  },

  renderStream(reply, context) {
    const frames: string[] = [
      event('message_start', {
        type: 'message_start',
        message: {
          id: `msg_fake_${context.index}`,
          type: 'message',
          role: 'assistant',
          model: requestBody(context).model ?? 'fake-model',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: context.usage.inputTokens, output_tokens: 1 },
        },
      }),
    ];
    let blockIndex = 0;
    if (reply.text !== undefined) {
      const index = blockIndex++;
      frames.push(event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const piece of wordPieces(reply.text)) {
        frames.push(event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
      }
      frames.push(event('content_block_stop', { type: 'content_block_stop', index }));
    }
    (reply.toolCalls ?? []).forEach((call, position) => {
      const index = blockIndex++;
      frames.push(
        event('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: toolUseId(reply, context, position), name: call.name, input: {} },
        }),
      );
      for (const piece of splitInPieces(JSON.stringify(call.args), 3)) {
        frames.push(event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }));
      }
      frames.push(event('content_block_stop', { type: 'content_block_stop', index }));
    });
    frames.push(
      event('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stopReason(reply), stop_sequence: null },
        usage: { output_tokens: context.usage.outputTokens },
      }),
      event('message_stop', { type: 'message_stop' }),
    );
    return frames;
  },

  errorBody(status) {
    const type = status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
    return { type: 'error', error: { type, message: `fake upstream error ${status}` } };
  },
};

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Starts a fake Anthropic Messages API server; use `baseUrl` (ending in `/v1`) as the provider base URL. */
export function startAnthropicUpstream(): Promise<FakeUpstream> {
  return startFakeUpstream(anthropicDialect);
}
