import { describe, expect, it } from 'vitest';
import { formatModelSpec, isModelProvider, parseModelSpec } from '../../src/models/model-spec.js';

describe('parseModelSpec', () => {
  it.each([
    ['openai:gpt-4o', 'openai', 'gpt-4o'],
    ['anthropic:claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5'],
    ['demo:default', 'demo', 'default'],
    ['openai-compatible:llama3.1:8b', 'openai-compatible', 'llama3.1:8b'],
    ['  openai:gpt-4o-mini  ', 'openai', 'gpt-4o-mini'],
  ])('parses %s', (text, provider, model) => {
    expect(parseModelSpec(text)).toEqual({ ok: true, spec: { provider, model } });
  });

  it('rejects a value without a provider separator', () => {
    const result = parseModelSpec('gpt-4o');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('missing-separator');
      expect(result.error.message).toContain('PROVIDER:MODEL');
    }
  });

  it('rejects an unknown provider and lists the known ones', () => {
    const result = parseModelSpec('gemini:pro');
    expect(result).toMatchObject({ ok: false, error: { code: 'unknown-provider' } });
    if (!result.ok) {
      expect(result.error.message).toContain('"gemini"');
      expect(result.error.message).toContain('openai-compatible');
    }
  });

  it('is case-sensitive about providers', () => {
    expect(parseModelSpec('OpenAI:gpt-4o')).toMatchObject({ ok: false, error: { code: 'unknown-provider' } });
  });

  it.each([
    [':gpt-4o', 'empty-provider'],
    ['openai:', 'empty-model'],
    ['openai:   ', 'empty-model'],
    ['', 'missing-separator'],
  ])('rejects %j with %s', (text, code) => {
    expect(parseModelSpec(text)).toMatchObject({ ok: false, error: { code } });
  });
});

describe('formatModelSpec', () => {
  it('round-trips with parseModelSpec, colons in model names included', () => {
    for (const text of ['openai:gpt-4o', 'openai-compatible:llama3.1:8b', 'demo:default']) {
      const parsed = parseModelSpec(text);
      if (!parsed.ok) throw new Error(parsed.error.message);
      expect(formatModelSpec(parsed.spec)).toBe(text);
    }
  });
});

describe('isModelProvider', () => {
  it('accepts exactly the four providers', () => {
    expect(['openai', 'anthropic', 'openai-compatible', 'demo'].every(isModelProvider)).toBe(true);
    expect(isModelProvider('ollama')).toBe(false);
  });
});
