import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createDemoModel } from './demo-model.js';
import { modelFetch } from './model-fetch.js';
import type { LanguageModelV3 } from './language-model-spec.js';
import { UnsupportedModelError } from './model-errors.js';
import { formatModelSpec, isModelProvider, MODEL_PROVIDERS } from './model-spec.js';

export interface ModelConfig {
  provider: string;
  model: string;
  baseUrl?: string | null;
  apiKey?: string | null;
}

/** Credentials and plumbing from the boot configuration; this module never reads process.env. */
export interface ModelEnvironment {
  openaiApiKey?: string;
  anthropicApiKey?: string;
  /** Replaces global fetch for provider calls (tests, instrumentation). */
  fetch?: typeof fetch;
}

export interface ModelCapabilities {
  tools: boolean;
  streaming: boolean;
}

export interface ResolvedModel {
  model: LanguageModelV3;
  /** `provider:model`, as the project names it. */
  modelId: string;
  capabilities: ModelCapabilities;
}

const FULL_CAPABILITIES: ModelCapabilities = Object.freeze({ tools: true, streaming: true });

export function resolveLanguageModel(config: ModelConfig, env: ModelEnvironment): ResolvedModel {
  const modelId = formatModelSpec(config);
  const provider = config.provider;
  const model = config.model.trim();
  if (!isModelProvider(provider)) {
    throw new UnsupportedModelError(
      'unknown-provider',
      `project model ${modelId} names unknown provider "${provider}": use one of ${MODEL_PROVIDERS.join(', ')}`,
    );
  }
  if (model === '') {
    throw new UnsupportedModelError('invalid-model-spec', `project model ${modelId} has an empty model name`);
  }
  const baseURL = normalizeBaseUrl(config.baseUrl, modelId);
  const fetchOption = { fetch: env.fetch ?? modelFetch };

  switch (provider) {
    case 'openai': {
      // The API key is always passed explicitly: left undefined, the SDK would fall back
      // to reading process.env itself, bypassing the configuration module.
      const apiKey = pickKey(config.apiKey, env.openaiApiKey, modelId, 'OPENAI_API_KEY');
      const openai = createOpenAI({ apiKey, ...(baseURL === undefined ? {} : { baseURL }), ...fetchOption });
      // Chat Completions rather than the Responses API (the SDK's default for openai(...)):
      // Parley resends the whole conversation on every turn, so the Responses API's
      // server-side state (`store`, previous_response_id) brings nothing; Chat Completions
      // is what proxies, gateways and custom baseUrls speak, and it is the same wire
      // protocol as openai-compatible, so one fake upstream tests both.
      return { model: openai.chat(model), modelId, capabilities: FULL_CAPABILITIES };
    }
    case 'anthropic': {
      const apiKey = pickKey(config.apiKey, env.anthropicApiKey, modelId, 'ANTHROPIC_API_KEY');
      const anthropic = createAnthropic({ apiKey, ...(baseURL === undefined ? {} : { baseURL }), ...fetchOption });
      return { model: anthropic.languageModel(model), modelId, capabilities: FULL_CAPABILITIES };
    }
    case 'openai-compatible': {
      if (baseURL === undefined) {
        throw new UnsupportedModelError(
          'missing-base-url',
          `project model ${modelId} has no base URL: set --model-base-url (e.g. http://localhost:11434/v1 for Ollama)`,
        );
      }
      const apiKey = blankToUndefined(config.apiKey);
      const compatible = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        ...(apiKey === undefined ? {} : { apiKey }),
        // Ask for usage in the last stream chunk (stream_options.include_usage); Ollama,
        // vLLM and LM Studio honour it, and token counts are needed for accounting.
        includeUsage: true,
        ...fetchOption,
      });
      return { model: compatible.chatModel(model), modelId, capabilities: FULL_CAPABILITIES };
    }
    case 'demo':
      return { model: createDemoModel(model), modelId, capabilities: FULL_CAPABILITIES };
  }
}

function pickKey(
  configured: string | null | undefined,
  fromEnvironment: string | undefined,
  modelId: string,
  variable: string,
): string {
  const key = blankToUndefined(configured) ?? blankToUndefined(fromEnvironment);
  if (key === undefined) {
    throw new UnsupportedModelError(
      'missing-api-key',
      `project model ${modelId} has no API key: set --model-api-key or ${variable}`,
    );
  }
  return key;
}

function normalizeBaseUrl(value: string | null | undefined, modelId: string): string | undefined {
  const trimmed = blankToUndefined(value);
  if (trimmed === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new UnsupportedModelError('invalid-base-url', `project model ${modelId} has an invalid base URL "${trimmed}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsupportedModelError(
      'invalid-base-url',
      `project model ${modelId} has a base URL that is not http or https: "${trimmed}"`,
    );
  }
  return trimmed.replace(/\/+$/, '');
}

function blankToUndefined(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
