import { NoOutputGeneratedError, type ModelMessage } from 'ai';
import type {
  LanguageModelV3,
  LanguageModelV3AssistantContent,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3Usage,
  LanguageModelV3Warning,
} from './language-model-spec.js';

/*
 * One call of a model through the AI SDK's provider interface (LanguageModelV3
 * doGenerate / doStream), without generateText / streamText on top. Those re-validate
 * every message of the prompt with zod on every call — most of the SDK's cost per
 * request — to protect callers from malformed input; Parley builds its prompts itself
 * (conversation-history.ts), so that work bought nothing. The providers (the wire
 * protocols, their parsing and their errors) are the SDK's, unchanged.
 * See docs/decisions/0006-lean-model-calls-and-hot-statements.md.
 */

export type ProviderTool = LanguageModelV3FunctionTool;
export type ProviderWarning = LanguageModelV3Warning;

export interface ModelCallInput {
  model: LanguageModelV3;
  system: string;
  messages: ModelMessage[];
  tools: ProviderTool[];
  abortSignal: AbortSignal;
  /** Streaming only: each piece of reply text as it arrives. */
  onTextDelta?: ((text: string) => void) | undefined;
}

export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  /** The parsed JSON input; the raw text when it was not JSON. */
  input: unknown;
  /** Names no offered tool, or its input is not JSON: never run, the model is told why. */
  invalid: boolean;
}

export interface ModelCallOutput {
  text: string;
  toolCalls: ModelToolCall[];
  tokensUsed: number;
  warnings: ProviderWarning[];
}

/** Tools as providers take them: a JSON schema per action type, built once per catalog. */
export function providerTool(name: string, description: string, inputSchema: object): ProviderTool {
  return { type: 'function', name, description, inputSchema: inputSchema as ProviderTool['inputSchema'] };
}

/** Parley's messages (ModelMessage, the SDK's public shape) in the provider's prompt form. */
export function toProviderPrompt(system: string, messages: ModelMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  if (system !== '') prompt.push({ role: 'system', content: system });
  for (const message of messages) prompt.push(toProviderMessage(message));
  return prompt;
}

function toProviderMessage(message: ModelMessage): LanguageModelV3Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      if (typeof message.content === 'string') return { role: 'user', content: [{ type: 'text', text: message.content }] };
      return {
        role: 'user',
        content: message.content.map((part) => {
          if (part.type !== 'text') throw new Error(`unsupported user message part "${part.type}"`);
          return { type: 'text', text: part.text };
        }),
      };
    case 'assistant': {
      if (typeof message.content === 'string') return { role: 'assistant', content: message.content === '' ? [] : [{ type: 'text', text: message.content }] };
      const content: LanguageModelV3AssistantContent = [];
      for (const part of message.content) {
        if (part.type === 'text') {
          // Providers refuse empty text blocks (Anthropic does), as the SDK's own conversion knows.
          if (part.text !== '') content.push({ type: 'text', text: part.text });
        } else if (part.type === 'tool-call') {
          content.push({ type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
        } else {
          throw new Error(`unsupported assistant message part "${part.type}"`);
        }
      }
      return { role: 'assistant', content };
    }
    case 'tool':
      return {
        role: 'tool',
        content: message.content.map((part) => {
          if (part.type !== 'tool-result') throw new Error(`unsupported tool message part "${part.type}"`);
          return { type: 'tool-result', toolCallId: part.toolCallId, toolName: part.toolName, output: part.output as LanguageModelV3ToolResultOutput };
        }),
      };
  }
}

function callOptions(input: ModelCallInput): LanguageModelV3CallOptions {
  return {
    prompt: toProviderPrompt(input.system, input.messages),
    ...(input.tools.length > 0 ? { tools: input.tools, toolChoice: { type: 'auto' } } : {}),
    abortSignal: input.abortSignal,
  };
}

/** What the SDK's parseToolCall does: empty input is `{}`, unknown tools and non-JSON input are invalid. */
function parseToolCall(call: { toolCallId: string; toolName: string; input: string }, tools: ProviderTool[]): ModelToolCall {
  const known = tools.some((tool) => tool.name === call.toolName);
  if (call.input.trim() === '') return { toolCallId: call.toolCallId, toolName: call.toolName, input: {}, invalid: !known };
  try {
    return { toolCallId: call.toolCallId, toolName: call.toolName, input: JSON.parse(call.input) as unknown, invalid: !known };
  } catch {
    return { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, invalid: true };
  }
}

function tokensOf(usage: LanguageModelV3Usage | undefined): number {
  if (!usage) return 0;
  return (usage.inputTokens.total ?? 0) + (usage.outputTokens.total ?? 0);
}

/** A whole reply (doGenerate). Throws what the provider throws; classify() turns it into a relay error. */
export async function generateReply(input: ModelCallInput): Promise<ModelCallOutput> {
  const result = await withAbortReason(input.abortSignal, () => input.model.doGenerate(callOptions(input)));
  const output: ModelCallOutput = { text: '', toolCalls: [], tokensUsed: tokensOf(result.usage), warnings: result.warnings };
  for (const part of result.content) {
    if (part.type === 'text') output.text += part.text;
    else if (part.type === 'tool-call' && part.providerExecuted !== true) output.toolCalls.push(parseToolCall(part, input.tools));
  }
  return output;
}

/**
 * A streamed reply (doStream): text as it arrives, tool calls once complete. A stream
 * that ends without its finish part was cut short, which is a failure, not a reply.
 */
export async function streamReply(input: ModelCallInput): Promise<ModelCallOutput> {
  return withAbortReason(input.abortSignal, async () => {
    const { stream } = await input.model.doStream({ ...callOptions(input), includeRawChunks: false });
    const output: ModelCallOutput = { text: '', toolCalls: [], tokensUsed: 0, warnings: [] };
    let finished = false;
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        switch (part.type) {
          case 'text-delta':
            if (part.delta !== '') {
              output.text += part.delta;
              input.onTextDelta?.(part.delta);
            }
            break;
          case 'tool-call':
            if (part.providerExecuted !== true) output.toolCalls.push(parseToolCall(part, input.tools));
            break;
          case 'stream-start':
            output.warnings = part.warnings;
            break;
          case 'finish':
            output.tokensUsed = tokensOf(part.usage);
            finished = true;
            break;
          case 'error':
            throw part.error;
          default:
            break;
        }
      }
    } finally {
      // Stops the provider's reading of the upstream when we leave early (error, abort).
      reader.cancel().catch(() => {});
    }
    if (!finished) throw new NoOutputGeneratedError({ message: 'the model stream ended without a finish part' });
    return output;
  });
}

/** After an abort, whatever the provider threw is reported as the abort's own reason (TimeoutError, AbortError). */
async function withAbortReason<T>(signal: AbortSignal, call: () => PromiseLike<T>): Promise<T> {
  if (signal.aborted) throw signal.reason;
  try {
    return await call();
  } catch (error) {
    if (signal.aborted && signal.reason !== undefined) throw signal.reason;
    throw error;
  }
}
