import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3Tool,
  LanguageModelV3Usage,
} from './language-model-spec.js';

/*
 * Parley's offline `demo` model: deterministic, no network, no credentials. It reads
 * only the last message of the prompt (and the tool calls it answers), never the system
 * prompt, so it cannot leak a project's instructions.
 */

export const DEMO_PROVIDER_ID = 'parley.demo';

const WORDS_PER_STREAM_CHUNK = 3;
const NAVIGATE_VERBS = /\b(take me|bring me|go|open|show|navigate|switch|jump)\b/;
const HUMAN_WORDS = /\b(human|person|people|agent|operator|representative|someone real|real person|staff)\b/;
const FILLER_WORDS = new Set([
  'to', 'the', 'my', 'me', 'our', 'your', 'a', 'an', 'back', 'please', 'page', 'screen', 'tab', 'section', 'view', 'up', 'into', 'in', 'on', 'over',
]);
/** Words that mean the sentence is not naming a screen ("show me what you can do"). */
const NOT_A_SCREEN = new Set([
  'what', 'how', 'why', 'who', 'where', 'when', 'which', 'you', 'it', 'this', 'that', 'something', 'anything', 'i', 'we', 'ahead', 'away', 'around', 'off',
]);
const FAILED_STATUSES = new Set(['failed', 'failure', 'error', 'rejected', 'expired', 'cancelled', 'canceled']);

interface DemoToolCall {
  toolName: string;
  input: Record<string, unknown>;
}

interface DemoReply {
  text: string;
  toolCalls: DemoToolCall[];
}

export function createDemoModel(modelName = 'default'): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: DEMO_PROVIDER_ID,
    modelId: modelName,
    supportedUrls: {},
    async doGenerate(options) {
      throwIfAborted(options.abortSignal);
      const reply = decideReply(options);
      const toolCalls = reply.toolCalls.map((call, index) => toToolCallContent(call, index, options));
      const content: LanguageModelV3Content[] = [];
      if (reply.text !== '') content.push({ type: 'text', text: reply.text });
      content.push(...toolCalls);
      const result: LanguageModelV3GenerateResult = {
        content,
        finishReason: finishReason(reply),
        usage: usageFor(options, reply),
        warnings: [],
        response: { modelId: modelName },
      };
      return result;
    },
    async doStream(options) {
      throwIfAborted(options.abortSignal);
      const reply = decideReply(options);
      const parts = streamParts(reply, options, modelName);
      let next = 0;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        // Pull-based so a slow consumer sees one chunk at a time and an abort stops the stream.
        pull(controller) {
          if (options.abortSignal?.aborted) {
            controller.error(options.abortSignal.reason);
            return;
          }
          const part = parts[next++];
          if (part === undefined) controller.close();
          else controller.enqueue(part);
        },
      });
      return { stream };
    },
  };
}

/** The whole behaviour, as a pure function of the call options. Exported for tests. */
export function decideReply(options: Pick<LanguageModelV3CallOptions, 'prompt' | 'tools' | 'toolChoice'>): DemoReply {
  const last = options.prompt[options.prompt.length - 1];
  if (last?.role === 'tool') return replyToToolResults(last, options.prompt);

  const offered = offeredToolNames(options);
  const userText = last?.role === 'user' ? textOf(last).trim() : '';
  const lower = userText.toLowerCase();

  if (offered.has('escalate') && HUMAN_WORDS.test(lower)) {
    return {
      text: "I'll ask a person from the team to help you.",
      toolCalls: [{ toolName: 'escalate', input: { reason: `The user asked for a person: "${clip(userText, 200)}"` } }],
    };
  }

  const navigateTool = options.tools?.find((tool) => tool.type === 'function' && tool.name === 'navigate');
  if (navigateTool !== undefined && offered.has('navigate')) {
    const requested = requestedScreen(lower);
    if (requested !== undefined) {
      const allowed = allowedScreens(navigateTool);
      const screen = allowed === undefined ? requested : matchScreen(requested, allowed);
      if (screen === undefined) {
        return {
          text: `I can't find a screen called "${requested}". I can open: ${allowed?.join(', ')}.`,
          toolCalls: [],
        };
      }
      return { text: `Taking you to ${screen}.`, toolCalls: [{ toolName: 'navigate', input: { screen } }] };
    }
  }

  return { text: introduction(offered), toolCalls: [] };
}

function introduction(offered: Set<string>): string {
  const abilities: string[] = [];
  if (offered.has('navigate')) abilities.push('take you to a screen (try "take me to my orders")');
  if (offered.has('escalate')) abilities.push('get a person to help (try "I want to talk to a human")');
  const tail = abilities.length === 0 ? 'I can only chat in this mode.' : `I can ${abilities.join(' or ')}.`;
  return `I'm Parley's offline demo model, so I don't understand much yet. ${tail}`;
}

function replyToToolResults(message: Extract<LanguageModelV3Message, { role: 'tool' }>, prompt: LanguageModelV3Message[]): DemoReply {
  const sentences: string[] = [];
  for (const part of message.content) {
    if (part.type !== 'tool-result') continue;
    const failed = isFailure(part.output);
    const input = findToolCallInput(prompt, part.toolCallId);
    sentences.push(failed ? describeFailure(part.toolName, input) : describeSuccess(part.toolName, input));
  }
  return { text: sentences.length === 0 ? 'Done.' : sentences.join(' '), toolCalls: [] };
}

function describeSuccess(toolName: string, input: unknown): string {
  const screen = screenOf(input);
  if (toolName === 'navigate' && screen !== undefined) return `Done: you're on ${screen} now.`;
  if (toolName === 'escalate') return 'Done: a person from the team will join this conversation.';
  return `Done: the ${toolName} action completed.`;
}

function describeFailure(toolName: string, input: unknown): string {
  const screen = screenOf(input);
  if (toolName === 'navigate' && screen !== undefined) return `Sorry, I couldn't open ${screen}.`;
  if (toolName === 'escalate') return "Sorry, I couldn't reach a person right now.";
  return `Sorry, the ${toolName} action failed.`;
}

type ToolResultOutput = Extract<Extract<LanguageModelV3Message, { role: 'tool' }>['content'][number], { type: 'tool-result' }>['output'];

function isFailure(output: ToolResultOutput): boolean {
  if (output.type === 'error-text' || output.type === 'error-json' || output.type === 'execution-denied') return true;
  if (output.type !== 'json' || output.value === null || typeof output.value !== 'object' || Array.isArray(output.value)) {
    return false;
  }
  const value = output.value as Record<string, unknown>;
  if (value.ok === false || value.success === false) return true;
  if (value.error !== undefined && value.error !== null && value.error !== false) return true;
  return typeof value.status === 'string' && FAILED_STATUSES.has(value.status.toLowerCase());
}

function findToolCallInput(prompt: LanguageModelV3Message[], toolCallId: string): unknown {
  for (const message of prompt) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call' && part.toolCallId === toolCallId) return part.input;
    }
  }
  return undefined;
}

function screenOf(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const screen = (input as { screen?: unknown }).screen;
  return typeof screen === 'string' ? screen : undefined;
}

function requestedScreen(lowerText: string): string | undefined {
  const match = NAVIGATE_VERBS.exec(lowerText);
  if (match === null) return undefined;
  const rest = lowerText.slice(match.index + match[0].length).split(/[^a-z0-9_-]+/).filter((word) => word !== '');
  const candidate = rest.find((word) => !FILLER_WORDS.has(word));
  return candidate === undefined || NOT_A_SCREEN.has(candidate) ? undefined : candidate;
}

function allowedScreens(tool: LanguageModelV3Tool): string[] | undefined {
  if (tool.type !== 'function') return undefined;
  const properties = tool.inputSchema.properties;
  const screen = properties?.screen;
  if (screen === undefined || typeof screen === 'boolean' || !Array.isArray(screen.enum)) return undefined;
  const values = screen.enum.filter((value: unknown): value is string => typeof value === 'string');
  return values.length === 0 ? undefined : values;
}

function matchScreen(requested: string, allowed: string[]): string | undefined {
  const singular = (word: string): string => word.toLowerCase().replace(/s$/, '');
  return allowed.find((screen) => screen.toLowerCase() === requested) ?? allowed.find((screen) => singular(screen) === singular(requested));
}

function offeredToolNames(options: Pick<LanguageModelV3CallOptions, 'tools' | 'toolChoice'>): Set<string> {
  const choice = options.toolChoice;
  if (choice?.type === 'none') return new Set();
  const names = (options.tools ?? []).filter((tool) => tool.type === 'function').map((tool) => tool.name);
  if (choice?.type === 'tool') return new Set(names.filter((name) => name === choice.toolName));
  return new Set(names);
}

function textOf(message: LanguageModelV3Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
}

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

/** Whether a UTF-16 code unit is whitespace as JavaScript's `\s` defines it. */
function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return code === 160 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** Words separated by whitespace; a scan, not a split: it runs over the whole prompt on every call. */
function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let index = 0; index < text.length; index++) {
    const space = isSpace(text.charCodeAt(index));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/**
 * Word counts of long texts seen lately. The system prompt comes back, equal, on every
 * call of a project; looking it up costs a fraction of counting it again.
 */
const longTextWords = new Map<string, number>();
const longText = 256;

function cachedWords(text: string): number {
  if (text.length < longText) return countWords(text);
  let words = longTextWords.get(text);
  if (words === undefined) {
    words = countWords(text);
    if (longTextWords.size >= 100) longTextWords.delete(longTextWords.keys().next().value as string);
    longTextWords.set(text, words);
  }
  return words;
}

function promptWords(options: LanguageModelV3CallOptions): number {
  let words = 0;
  for (const message of options.prompt) {
    if (typeof message.content === 'string') {
      words += cachedWords(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') words += cachedWords(part.text);
      else if (part.type === 'tool-call') words += countWords(JSON.stringify(part.input) ?? '');
      else if (part.type === 'tool-result') words += countWords(JSON.stringify(part.output) ?? '');
    }
  }
  return words;
}

/** Words count as tokens; each tool call costs one output token. */
function usageFor(options: LanguageModelV3CallOptions, reply: DemoReply): LanguageModelV3Usage {
  const input = promptWords(options);
  const output = countWords(reply.text) + reply.toolCalls.length;
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: countWords(reply.text), reasoning: undefined },
  };
}

function finishReason(reply: DemoReply): LanguageModelV3GenerateResult['finishReason'] {
  return reply.toolCalls.length > 0 ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' };
}

/** Ids only need to be unique within a conversation; the prompt length makes them so and stays deterministic. */
function toolCallId(options: LanguageModelV3CallOptions, index: number): string {
  return `demo_call_${options.prompt.length}_${index}`;
}

function toToolCallContent(call: DemoToolCall, index: number, options: LanguageModelV3CallOptions) {
  return {
    type: 'tool-call' as const,
    toolCallId: toolCallId(options, index),
    toolName: call.toolName,
    input: JSON.stringify(call.input),
  };
}

function streamParts(reply: DemoReply, options: LanguageModelV3CallOptions, modelName: string): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', modelId: modelName },
  ];
  if (reply.text !== '') {
    parts.push({ type: 'text-start', id: 'text-0' });
    const words = reply.text.split(' ');
    for (let start = 0; start < words.length; start += WORDS_PER_STREAM_CHUNK) {
      const chunk = words.slice(start, start + WORDS_PER_STREAM_CHUNK).join(' ');
      parts.push({ type: 'text-delta', id: 'text-0', delta: start === 0 ? chunk : ` ${chunk}` });
    }
    parts.push({ type: 'text-end', id: 'text-0' });
  }
  reply.toolCalls.forEach((call, index) => {
    const toolCall = toToolCallContent(call, index, options);
    parts.push(
      { type: 'tool-input-start', id: toolCall.toolCallId, toolName: toolCall.toolName },
      { type: 'tool-input-delta', id: toolCall.toolCallId, delta: toolCall.input },
      { type: 'tool-input-end', id: toolCall.toolCallId },
      toolCall,
    );
  });
  parts.push({ type: 'finish', usage: usageFor(options, reply), finishReason: finishReason(reply) });
  return parts;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}
