import { validationError } from '../http/errors.js';
import { parseModelSpec } from '../models/model-spec.js';

/**
 * Checks a `PROVIDER:MODEL` setting before it is stored, so a typo is refused
 * when it is made rather than when the first end user writes.
 */
export function validateModelSetting(model: string, baseUrl: string | undefined | null): void {
  const parsed = parseModelSpec(model);
  if (!parsed.ok) throw validationError(`model: ${parsed.error.message}`);
  if (parsed.spec.provider === 'openai-compatible' && !baseUrl) {
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
