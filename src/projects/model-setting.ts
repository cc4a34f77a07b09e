import { validationError } from '../http/errors.js';

const providers = ['openai', 'anthropic', 'openai-compatible', 'demo'] as const;

/**
 * Checks a `PROVIDER:MODEL` setting before it is stored, so a typo is refused
 * when it is made rather than when the first end user writes.
 */
export function validateModelSetting(model: string, baseUrl: string | undefined | null): void {
  const separator = model.indexOf(':');
  const provider = separator > 0 ? model.slice(0, separator) : '';
  const name = separator > 0 ? model.slice(separator + 1) : '';
  if (!providers.includes(provider as (typeof providers)[number]) || name.trim() === '') {
    throw validationError(`model must be PROVIDER:MODEL with PROVIDER one of ${providers.join(', ')}; got "${model}"`);
  }
  if (provider === 'openai-compatible' && !baseUrl) {
    throw validationError('an openai-compatible model needs a base URL (--model-base-url)');
  }
  if (baseUrl) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw validationError(`model base URL is not a URL: "${baseUrl}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw validationError('model base URL must be http or https');
  }
}
