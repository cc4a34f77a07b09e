import type { FastifyBaseLogger } from 'fastify';
import type { ModelMessage } from 'ai';
import { generateReply, providerTool, streamReply, type ModelCallOutput, type ProviderTool } from '../models/model-call.js';
import type { LanguageModelV3 } from '../models/language-model-spec.js';
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
  model: LanguageModelV3;
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
  /** Where provider warnings (settings it ignored) go. */
  log: Pick<FastifyBaseLogger, 'warn'>;
}

export interface ModelStepResult {
  /** The reply text: every attempt's text, concatenated (exactly what was streamed). */
  text: string;
  calls: ValidToolCall[];
  tokensUsed: number;
  /** Time spent waiting on the upstream. */
  latencyMs: number;
}

/** Provider tools by catalog: catalogs are cached per project, so their tools are built once. */
const toolSets = new WeakMap<ActionCatalog, ProviderTool[]>();

/** The catalog's action types as tools. The model's calls come back to us; the app runs them as actions. */
function toolsOf(catalog: ActionCatalog): ProviderTool[] {
  let tools = toolSets.get(catalog);
  if (!tools) {
    tools = catalog.types.map((type) => providerTool(type.type, type.description, type.payloadSchema));
    toolSets.set(catalog, tools);
  }
  return tools;
}

/**
 * One step of a turn: calls the model with the history and the catalog as tools,
 * validates every tool call against its payload schema, and — when some are
 * invalid — tells the model why (as tool errors) and lets it correct itself,
 * up to maxAttemptsPerStep calls. Invalid calls never leave this function.
 * Every upstream failure is thrown as a ModelRelayError.
 */
export async function runModelStep(input: ModelStepInput): Promise<ModelStepResult> {
  // A timer cleared when the step ends: AbortSignal.timeout costs ~10x more in Node 20
  // (weak references and finalization), once per model call.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DOMException('The model call timed out', 'TimeoutError')), input.timeoutMs);
  timer.unref();
  try {
    return await runAttempts(input, deadline.signal);
  } finally {
    clearTimeout(timer);
  }
}

async function runAttempts(input: ModelStepInput, signal: AbortSignal): Promise<ModelStepResult> {
  const tools = toolsOf(input.catalog);
  const messages = [...input.messages];
  const result: ModelStepResult = { text: '', calls: [], tokensUsed: 0, latencyMs: 0 };

  for (let attemptNumber = 1; attemptNumber <= maxAttemptsPerStep; attemptNumber++) {
    const started = performance.now();
    let attempt: ModelCallOutput;
    try {
      const call = { model: input.model, system: input.system, messages, tools, abortSignal: signal, onTextDelta: input.onTextDelta };
      attempt = input.stream ? await streamReply(call) : await generateReply(call);
    } catch (error) {
      throw classify(error);
    } finally {
      result.latencyMs += performance.now() - started;
    }
    if (attempt.warnings.length > 0) input.log.warn({ model: input.model.modelId, provider: input.model.provider, warnings: attempt.warnings }, 'model provider warnings');
    result.text += attempt.text;
    result.tokensUsed += attempt.tokensUsed;

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
