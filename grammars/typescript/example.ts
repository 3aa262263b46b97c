// retry.ts - retry policies with exponential backoff.
import { EventEmitter } from "events";
import type { Logger } from "./logger";

/** Default number of attempts before giving up. */
export const MAX_ATTEMPTS = 5;

/** Outcome of a retried operation. */
export enum Outcome {
  Success = "success",
  Exhausted = "exhausted",
}

/** An operation that may fail transiently. */
export type Operation<T> = () => Promise<T>;

/** Options accepted by {@link RetryPolicy}. */
export interface RetryOptions {
  maxAttempts?: number;
  baseDelayMs: number;
  logger?: Logger;
  shouldRetry(error: unknown): boolean;
}

/** Computes the delay in milliseconds before the given attempt (0-based). */
export function backoff(baseMs: number, attempt: number): number {
  return baseMs * 2 ** attempt;
}

/** The first item, or the fallback when there is none (a generic arrow function). */
export const firstOr = <T>(items: readonly T[], fallback: T): T => items[0] ?? fallback;

/** Sleeps for the given number of milliseconds. */
const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

namespace Defaults {
  export const baseDelayMs = 100;
}

/**
 * Describes how often and how long to retry an operation.
 */
export class RetryPolicy extends EventEmitter implements Disposable {
  private readonly maxAttempts: number;

  /** Creates a policy from the given options. */
  constructor(private readonly options: RetryOptions) {
    super();
    this.maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  }

  /** Runs op until it succeeds or the policy is exhausted. */
  async run<T>(op: Operation<T>): Promise<T | Outcome> {
    for (let attempt = 0; attempt < this.maxAttempts; attempt++) {
      try {
        return await op();
      } catch (error) {
        if (!this.options.shouldRetry(error)) throw error;
        this.options.logger?.warn(`attempt ${attempt + 1} failed`);
        await sleep(backoff(this.options.baseDelayMs, attempt));
      }
    }
    return Outcome.Exhausted;
  }

  [Symbol.dispose](): void {
    this.removeAllListeners();
  }
}

/** Base class for policies that can be cloned. */
export abstract class ClonablePolicy {
  abstract clone(): RetryPolicy;
}

export default function defaultPolicy(): RetryPolicy {
  return new RetryPolicy({ baseDelayMs: Defaults.baseDelayMs, shouldRetry: () => true });
}

// In-source tests (vitest): each describe/it block is a symbol named by its title.
if (import.meta.vitest) {
  const { describe, it, expect } = import.meta.vitest;
  describe("backoff", () => {
    it("doubles the delay each attempt", () => {
      expect(backoff(100, 2)).toBe(400);
    });
    it.skip("caps the delay", () => {});
  });
}
