/**
 * Polls `probe` until it returns something truthy and returns that value;
 * throws after `timeoutMs`. For effects that arrive asynchronously (a bus
 * message, a webhook delivery, another process).
 */
export async function eventually<T>(probe: () => T | Promise<T>, timeoutMs = 5_000, intervalMs = 20): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
