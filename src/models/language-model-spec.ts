import type { LanguageModel } from 'ai';

/*
 * The provider specification types (LanguageModelV3 and friends) live in
 * `@ai-sdk/provider`, which `ai` depends on but does not re-export and which is not
 * a direct dependency of Parley. Deriving them from `ai`'s public `LanguageModel`
 * union keeps them exactly in step with the installed SDK without an extra import.
 */

/** The AI SDK v6 model specification (`specificationVersion: 'v3'`). */
export type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
export type LanguageModelV3CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
export type LanguageModelV3GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
export type LanguageModelV3StreamResult = Awaited<ReturnType<LanguageModelV3['doStream']>>;
export type LanguageModelV3StreamPart =
  LanguageModelV3StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;
export type LanguageModelV3Prompt = LanguageModelV3CallOptions['prompt'];
export type LanguageModelV3Message = LanguageModelV3Prompt[number];
export type LanguageModelV3Usage = LanguageModelV3GenerateResult['usage'];
export type LanguageModelV3Content = LanguageModelV3GenerateResult['content'][number];
export type LanguageModelV3Tool = NonNullable<LanguageModelV3CallOptions['tools']>[number];
export type LanguageModelV3FunctionTool = Extract<LanguageModelV3Tool, { type: 'function' }>;
export type LanguageModelV3Warning = LanguageModelV3GenerateResult['warnings'][number];
export type LanguageModelV3AssistantContent = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'];
export type LanguageModelV3ToolResultOutput = Extract<Extract<LanguageModelV3Message, { role: 'tool' }>['content'][number], { type: 'tool-result' }>['output'];
