/**
 * `PROVIDER:MODEL` strings name a project's model, e.g. `openai:gpt-4o` or
 * `openai-compatible:llama3.1:8b`. Only the first `:` separates the provider,
 * because model names (Ollama tags in particular) may contain colons.
 */

export const MODEL_PROVIDERS = ['openai', 'anthropic', 'openai-compatible', 'demo'] as const;

export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export interface ModelSpec {
  provider: ModelProvider;
  model: string;
}

export type ModelSpecErrorCode = 'missing-separator' | 'empty-provider' | 'unknown-provider' | 'empty-model';

export interface ModelSpecError {
  code: ModelSpecErrorCode;
  /** A sentence naming what is wrong, safe to show to whoever typed the value. */
  message: string;
}

export type ModelSpecParseResult = { ok: true; spec: ModelSpec } | { ok: false; error: ModelSpecError };

const EXAMPLE = 'expected PROVIDER:MODEL, e.g. openai:gpt-4o, anthropic:claude-sonnet-4-5 or demo:default';

export function isModelProvider(value: string): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(value);
}

export function parseModelSpec(text: string): ModelSpecParseResult {
  const trimmed = text.trim();
  const separator = trimmed.indexOf(':');
  if (separator === -1) {
    return failure('missing-separator', `model "${trimmed}" has no provider: ${EXAMPLE}`);
  }
  const provider = trimmed.slice(0, separator).trim();
  const model = trimmed.slice(separator + 1).trim();
  if (provider === '') {
    return failure('empty-provider', `model "${trimmed}" has an empty provider: ${EXAMPLE}`);
  }
  if (!isModelProvider(provider)) {
    return failure(
      'unknown-provider',
      `model "${trimmed}" names unknown provider "${provider}": use one of ${MODEL_PROVIDERS.join(', ')}`,
    );
  }
  if (model === '') {
    return failure('empty-model', `model "${trimmed}" has an empty model name: ${EXAMPLE}`);
  }
  return { ok: true, spec: { provider, model } };
}

export function formatModelSpec(spec: { provider: string; model: string }): string {
  return `${spec.provider}:${spec.model}`;
}

function failure(code: ModelSpecErrorCode, message: string): ModelSpecParseResult {
  return { ok: false, error: { code, message } };
}
