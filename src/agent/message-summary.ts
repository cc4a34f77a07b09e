/** At most this many characters of reply text go into a summary. */
const maxTextLength = 140;

function describeAction(action: { type: string; payload: Record<string, unknown> }): string {
  const screen = action.payload['screen'];
  if (action.type === 'navigate' && typeof screen === 'string') return `navigate to ${screen}`;
  return action.type;
}

/**
 * A one-line summary of what a reply says or does, built from the reply itself
 * (first sentence, shortened) and its actions, so it costs no extra model call.
 */
export function summarizeReply(content: string, actions: Array<{ type: string; payload: Record<string, unknown> }>): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  const sentence = flat.match(/^.+?[.!?](?=\s|$)/)?.[0] ?? flat;
  const text = sentence.length > maxTextLength ? `${sentence.slice(0, maxTextLength - 1).trimEnd()}…` : sentence;
  const doing = actions.length > 0 ? `Actions: ${actions.map(describeAction).join(', ')}.` : '';
  if (text === '' && doing === '') return 'No reply text.';
  return [text, doing].filter((part) => part !== '').join(' ');
}
