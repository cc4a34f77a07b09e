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
 * OpenAI Chat Completions wire protocol (also what openai-compatible servers speak):
 * `POST /v1/chat/completions` or `POST /chat/completions`, `stream: true` answered as
 * `data: {chunk}\n\n` frames ending with `data: [DONE]`.
 */

export interface OpenAIRequestBody {
  model: string;
  messages: Array<Record<string, unknown>>;
  tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters: unknown } }>;
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

const CREATED = 1_700_000_000;

function requestBody(context: RenderContext): Partial<OpenAIRequestBody> {
  const body = context.request.body;
  return typeof body === 'object' && body !== null ? (body as Partial<OpenAIRequestBody>) : {};
}

function toolCallId(reply: ScriptedReply, context: RenderContext, position: number): string {
  return reply.toolCalls?.[position]?.id ?? `call_${context.index}_${position}`;
}

function finishReason(reply: ScriptedReply): string {
  return reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');
}

function usageBody(context: RenderContext) {
  const { inputTokens, outputTokens } = context.usage;
  return { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
}

const openAIDialect: FakeUpstreamDialect = {
  paths: ['/v1/chat/completions', '/chat/completions'],

  isStreaming(body) {
    return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
  },

  renderJson(reply, context) {
    const toolCalls = (reply.toolCalls ?? []).map((call, position) => ({
      id: toolCallId(reply, context, position),
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
    return {
      id: `chatcmpl-fake-${context.index}`,
      object: 'chat.completion',
      created: CREATED,
      model: requestBody(context).model ?? 'fake-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.text ?? null,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: finishReason(reply),
        },
      ],
      usage: usageBody(context),
    };
  },

  renderStream(reply, context) {
    const body = requestBody(context);
    const base = { id: `chatcmpl-fake-${context.index}`, object: 'chat.completion.chunk', created: CREATED, model: body.model ?? 'fake-model' };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      frame({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });

    const frames: string[] = [chunk({ role: 'assistant', content: '' })];
    for (const piece of wordPieces(reply.text ?? '')) frames.push(chunk({ content: piece }));
    (reply.toolCalls ?? []).forEach((call, position) => {
      // First delta names the call; the arguments then arrive in pieces, as OpenAI streams them.
      frames.push(
        chunk({
          tool_calls: [{ index: position, id: toolCallId(reply, context, position), type: 'function', function: { name: call.name, arguments: '' } }],
        }),
      );
      for (const piece of splitInPieces(JSON.stringify(call.args), 3)) {
        frames.push(chunk({ tool_calls: [{ index: position, function: { arguments: piece } }] }));
      }
    });
    frames.push(chunk({}, finishReason(reply)));
    if (body.stream_options?.include_usage === true) {
      frames.push(frame({ ...base, choices: [], usage: usageBody(context) }));
    }
    frames.push('data: [DONE]\n\n');
    return frames;
  },

  errorBody(status) {
    return {
      error: {
        message: `fake upstream error ${status}`,
        type: status === 429 ? 'rate_limit_exceeded' : 'server_error',
        param: null,
        code: null,
      },
    };
  },
};

function frame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** Starts a fake OpenAI Chat Completions server; `baseUrl` ends in `/v1`, `url` does not — both work. */
export function startOpenAIUpstream(): Promise<FakeUpstream> {
  return startFakeUpstream(openAIDialect);
}
