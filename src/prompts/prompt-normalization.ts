/** Longer opening messages are questions, not suggestions: they are never recorded. */
export const maxPromptLength = 200;

const trailingPunctuation = /[\s.,;:!?¡¿…。，、！？]+$/u;

/**
 * The form prompts are counted and shown in: Unicode-normalized (NFKC), lower
 * case, runs of whitespace collapsed to one space, trimmed, without trailing
 * punctuation. "  How do I  RESET my password?? " → "how do i reset my password".
 * Returns null when nothing is left or the message is too long to be a suggestion.
 */
export function normalizePrompt(content: string): string | null {
  const text = content.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim().replace(trailingPunctuation, '').trim();
  if (text.length === 0 || text.length > maxPromptLength) return null;
  return text;
}

const email = /[^\s@]+@[^\s@]+\.[^\s@]+/u;
const digitRun = /\d{6,}/u;
// Digits with the separators phone numbers are written with; judged by how many digits it holds.
const phoneLike = /\+?\(?\d[\d\s().\-/]{5,}\d/gu;

/**
 * Personal data never becomes a suggestion shown to other users: anything with
 * an e-mail address, a phone number (7+ digits with separators) or a run of 6+
 * digits (account, card, order numbers) is refused.
 */
export function containsPersonalData(text: string): boolean {
  const ascii = text.normalize('NFKC');
  if (email.test(ascii) || digitRun.test(ascii)) return true;
  for (const match of ascii.matchAll(phoneLike)) {
    if (match[0].replace(/\D/gu, '').length >= 7) return true;
  }
  return false;
}
