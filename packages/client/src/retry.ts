import { abortedError, isRetryable } from './errors.js';

export interface RetryPolicy {
  /** Total tries, the first included (default 3). 1 turns retries off. */
  attempts: number;
  /** Delay scale of the first retry in ms (default 250); doubles on each further retry. */
  baseDelayMs: number;
  /** Upper bound of one delay in ms (default 5000). */
  maxDelayMs: number;
  /** Source of randomness in [0, 1) for the jitter; tests pin it. */
  random: () => number;
}

export const defaultRetryPolicy: RetryPolicy = Object.freeze({ attempts: 3, baseDelayMs: 250, maxDelayMs: 5_000, random: Math.random });

export function retryPolicy(overrides: Partial<RetryPolicy> | false | undefined): RetryPolicy {
  if (overrides === false) return { ...defaultRetryPolicy, attempts: 1 };
  return { ...defaultRetryPolicy, ...overrides };
}

/**
 * Delay before retry number `retry` (1 for the first retry): exponential with
 * "equal jitter" — half the step is fixed so retries never bunch at 0 ms, the other
 * half random so many clients failing together do not retry in lockstep.
 */
export function backoffDelay(policy: RetryPolicy, retry: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return step / 2 + policy.random() * (step / 2);
}

/** Waits `ms`, or rejects with ABORTED as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Runs `task` until it succeeds, fails with a non-retryable error, or runs out of attempts. */
export async function withRetry<T>(policy: RetryPolicy, task: (attempt: number) => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task(attempt);
    } catch (error) {
      if (attempt >= policy.attempts || !isRetryable(error) || signal?.aborted) throw error;
      await sleep(backoffDelay(policy, attempt), signal);
    }
  }
}
