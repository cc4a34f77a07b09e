import { generateText, jsonSchema, streamText, tool, type LanguageModel, type LanguageModelUsage, type ModelMessage, type ToolSet, type TypedToolCall } from 'ai';
import { classify } from '../models/model-errors.js';
import type { ActionCatalog } from './action-catalog.js';

/** Model calls within one step when payloads keep failing their schema: the first plus two corrections. */
export const maxAttemptsPerStep = 3;

export interface ValidToolCall {
  toolCallId: string;
  type: string;
  payload: Record<string, unknown>;
}

export interface ModelStepInput {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  catalog: ActionCatalog;
  /** Bounds the whole step (all attempts), whether or not anyone is still listening. */
  timeoutMs: number;
  stream: boolean;
  /** Streaming only: each piece of reply text as it arrives. */
  onTextDelta?: (text: string) => void;
  /** Streaming only: each valid action as soon as it is complete; awaited (it persists the action). */
  onAction?: (call: ValidToolCall) => Promise<void>;
}

export interface ModelStepResult {
  /** The reply text: every attempt's text, concatenated (exactly what was streamed). */
  text: string;
  calls: ValidToolCall[];
  tokensUsed: number;
  /** Time spent waiting on the upstream. */
  latencyMs: number;
}

interface Attempt {
  text: string;
  toolCalls: Array<{ toolCallId: string; toolName: string; input: unknown; invalid: boolean }>;
  usage: LanguageModelUsage | undefined;
}

/** Tool sets by catalog: catalogs are cached per project, so their tools (and the SDK's work on their schemas) are reused. */
const toolSets = new WeakMap<ActionCatalog, ToolSet>();

/** Tools without `execute`: the SDK returns each call to us, and we hand it to the app as an action. */
function toolsOf(catalog: ActionCatalog): ToolSet {
  let tools = toolSets.get(catalog);
  if (!tools) {
    tools = {};
    for (const type of catalog.types) tools[type.type] = tool({ description: type.description, inputSchema: jsonSchema(type.payloadSchema) });
    toolSets.set(catalog, tools);
  }
  return tools;
}

function usageTokens(usage: LanguageModelUsage | undefined): number {
  if (!usage) return 0;
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

function simplify(call: TypedToolCall<ToolSet>): Attempt['toolCalls'][number] {
  return { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, invalid: call.invalid === true };
}

/**
 * One step of a turn: calls the model with the history and the catalog as tools,
 * validates every tool call against its payload schema, and — when some are
 * invalid — tells the model why (as tool errors) and lets it correct itself,
 * up to maxAttemptsPerStep calls. Invalid calls never leave this function.
 * Every upstream failure is thrown as a ModelRelayError.
 */
export async function runModelStep(input: ModelStepInput): Promise<ModelStepResult> {
  const signal = AbortSignal.timeout(input.timeoutMs);
  const tools = toolsOf(input.catalog);
  const messages = [...input.messages];
  const result: ModelStepResult = { text: '', calls: [], tokensUsed: 0, latencyMs: 0 };

  for (let attemptNumber = 1; attemptNumber <= maxAttemptsPerStep; attemptNumber++) {
    const started = performance.now();
    let attempt: Attempt;
    try {
      attempt = input.stream ? await streamAttempt(input, tools, messages, signal) : await generateAttempt(input, tools, messages, signal);
    } catch (error) {
      throw classify(error);
    } finally {
      result.latencyMs += performance.now() - started;
    }
    result.text += attempt.text;
    result.tokensUsed += usageTokens(attempt.usage);

    const problems = new Map<string, string>();
    for (const call of attempt.toolCalls) {
      const problem = call.invalid ? `"${call.toolName}" is not an available action or its input is not valid JSON` : input.catalog.check(call.toolName, call.input);
      if (problem !== null) {
        problems.set(call.toolCallId, problem);
        continue;
      }
      const valid: ValidToolCall = { toolCallId: call.toolCallId, type: call.toolName, payload: call.input as Record<string, unknown> };
      result.calls.push(valid);
      if (input.onAction) await input.onAction(valid);
    }
    if (problems.size === 0 || attemptNumber === maxAttemptsPerStep) break;

    // Tell the model which calls were refused and why; the valid ones already went to the app.
    messages.push(
      {
        role: 'assistant',
        content: [
          ...(attempt.text === '' ? [] : [{ type: 'text' as const, text: attempt.text }]),
          ...attempt.toolCalls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.toolCallId, toolName: c.toolName, input: c.input })),
        ],
      },
      {
        role: 'tool',
        content: attempt.toolCalls.map((c) => {
          const problem = problems.get(c.toolCallId);
          return {
            type: 'tool-result' as const,
            toolCallId: c.toolCallId,
            toolName: c.toolName,
            output:
              problem === undefined
                ? { type: 'json' as const, value: { status: 'accepted: sent to the app, its result will follow' } }
                : { type: 'error-text' as const, value: `Not run: ${problem}. Call the action again with a payload that matches its schema, or answer without it.` },
          };
        }),
      },
    );
  }
  return result;
}

async function generateAttempt(input: ModelStepInput, tools: ToolSet, messages: ModelMessage[], signal: AbortSignal): Promise<Attempt> {
  const response = await generateText({ model: input.model, system: input.system, messages, tools, maxRetries: 0, abortSignal: signal });
  return { text: response.text, toolCalls: response.toolCalls.map(simplify), usage: response.totalUsage };
}

async function streamAttempt(input: ModelStepInput, tools: ToolSet, messages: ModelMessage[], signal: AbortSignal): Promise<Attempt> {
  const response = streamText({
    model: input.model,
    system: input.system,
    messages,
    tools,
    maxRetries: 0,
    abortSignal: signal,
    // Errors arrive as parts of fullStream and are thrown below; without onError the SDK prints them.
    onError: () => {},
  });
  const attempt: Attempt = { text: '', toolCalls: [], usage: undefined };
  for await (const part of response.fullStream) {
    switch (part.type) {
      case 'text-delta':
        if (part.text !== '') {
          attempt.text += part.text;
          input.onTextDelta?.(part.text);
        }
        break;
      case 'tool-call':
        attempt.toolCalls.push(simplify(part));
        break;
      case 'finish':
        attempt.usage = part.totalUsage;
        break;
      case 'error':
        throw part.error;
      case 'abort':
        throw signal.reason ?? new DOMException('the model call was aborted', 'AbortError');
      default:
        break;
    }
  }
  return attempt;
}
