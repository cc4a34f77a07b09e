import { describe, expect, it } from 'vitest';
import { UnsupportedModelError } from '../../src/models/model-errors.js';
import { resolveLanguageModel } from '../../src/models/model-registry.js';

function resolutionError(run: () => unknown): UnsupportedModelError {
  try {
    run();
  } catch (error) {
    if (error instanceof UnsupportedModelError) return error;
    throw error;
  }
  throw new Error('expected an UnsupportedModelError');
}

describe('resolveLanguageModel', () => {
  it('builds an OpenAI Chat Completions model from the environment key', () => {
    const resolved = resolveLanguageModel({ provider: 'openai', model: 'gpt-4o' }, { openaiApiKey: 'sk-env' });
    expect(resolved.modelId).toBe('openai:gpt-4o');
    expect(resolved.model.specificationVersion).toBe('v3');
    // `openai.chat` reports provider "openai.chat"; the Responses API would say "openai.responses".
    expect(resolved.model.provider).toBe('openai.chat');
    expect(resolved.model.modelId).toBe('gpt-4o');
    expect(resolved.capabilities).toEqual({ tools: true, streaming: true });
  });

  it('prefers the project key over the environment key (and accepts a custom base URL)', () => {
    const resolved = resolveLanguageModel(
      { provider: 'openai', model: 'gpt-4o', apiKey: 'sk-project', baseUrl: 'http://127.0.0.1:1/v1/' },
      {},
    );
    expect(resolved.model.provider).toBe('openai.chat');
  });

  it('builds an Anthropic model', () => {
    const resolved = resolveLanguageModel({ provider: 'anthropic', model: 'claude-sonnet-4-5' }, { anthropicApiKey: 'k' });
    expect(resolved.model.provider).toBe('anthropic.messages');
    expect(resolved.modelId).toBe('anthropic:claude-sonnet-4-5');
  });

  it('builds an openai-compatible model without an API key', () => {
    const resolved = resolveLanguageModel(
      { provider: 'openai-compatible', model: 'llama3.1:8b', baseUrl: 'http://localhost:11434/v1' },
      {},
    );
    expect(resolved.model.provider).toBe('openai-compatible.chat');
    expect(resolved.model.modelId).toBe('llama3.1:8b');
    expect(resolved.modelId).toBe('openai-compatible:llama3.1:8b');
  });

  it('builds the demo model with no credentials at all', () => {
    const resolved = resolveLanguageModel({ provider: 'demo', model: 'default' }, {});
    expect(resolved.model.provider).toBe('parley.demo');
    expect(resolved.capabilities.tools).toBe(true);
  });

  it('names the missing OpenAI key and both ways to set it', () => {
    const error = resolutionError(() => resolveLanguageModel({ provider: 'openai', model: 'gpt-4o', apiKey: '  ' }, {}));
    expect(error.reason).toBe('missing-api-key');
    expect(error.message).toBe('project model openai:gpt-4o has no API key: set --model-api-key or OPENAI_API_KEY');
  });

  it('names the missing Anthropic key', () => {
    const error = resolutionError(() =>
      resolveLanguageModel({ provider: 'anthropic', model: 'claude-sonnet-4-5' }, { openaiApiKey: 'not-for-anthropic' }),
    );
    expect(error.reason).toBe('missing-api-key');
    expect(error.message).toContain('ANTHROPIC_API_KEY');
  });

  it('requires a base URL for openai-compatible', () => {
    const error = resolutionError(() => resolveLanguageModel({ provider: 'openai-compatible', model: 'llama3', baseUrl: null }, {}));
    expect(error.reason).toBe('missing-base-url');
    expect(error.message).toContain('--model-base-url');
  });

  it('rejects a base URL that is not http(s)', () => {
    const error = resolutionError(() =>
      resolveLanguageModel({ provider: 'openai-compatible', model: 'llama3', baseUrl: 'ftp://example.com' }, {}),
    );
    expect(error.reason).toBe('invalid-base-url');
    const garbled = resolutionError(() => resolveLanguageModel({ provider: 'openai', model: 'x', apiKey: 'k', baseUrl: 'not a url' }, {}));
    expect(garbled.reason).toBe('invalid-base-url');
  });

  it('rejects an unknown provider', () => {
    const error = resolutionError(() => resolveLanguageModel({ provider: 'gemini', model: 'pro' }, {}));
    expect(error.reason).toBe('unknown-provider');
    expect(error.message).toContain('gemini:pro');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('UnsupportedModelError');
  });
});
