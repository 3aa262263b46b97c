// retry.js - retry policies with exponential backoff.
import { EventEmitter } from "events";
import * as timers from "node:timers/promises";

const log = require("./log");

/** Default number of attempts before giving up. */
export const MAX_ATTEMPTS = 5;

/**
 * Computes the delay in milliseconds before the given attempt (0-based).
 */
export function backoff(baseMs, attempt) {
  return baseMs * 2 ** attempt;
}

/** Returns true when the error looks transient. */
const isTransient = (error) => error && error.code !== "EPERM";

/**
 * Describes how often and how long to retry an operation.
 */
export class RetryPolicy extends EventEmitter {
  /** Creates a policy with the default attempt count. */
  constructor(baseMs, maxAttempts = MAX_ATTEMPTS) {
    super();
    this.baseMs = baseMs;
    this.maxAttempts = maxAttempts;
  }

  /** Runs op until it succeeds or the policy is exhausted. */
  async run(op) {
    for (let attempt = 0; attempt < this.maxAttempts; attempt++) {
      try {
        return await op();
      } catch (error) {
        if (!isTransient(error)) throw error;
        this.emit("retry", attempt);
        await this.wait(attempt);
      }
    }
    throw new RetryExhaustedError(this.maxAttempts);
  }

  /** Sleeps for the backoff delay of the given attempt. */
  wait(attempt) {
    log.debug(`waiting before attempt ${attempt + 1}`);
    return timers.setTimeout(backoff(this.baseMs, attempt));
  }

  static get defaults() {
    return new RetryPolicy(100);
  }
}

/** Raised when every attempt failed. */
class RetryExhaustedError extends Error {
  constructor(attempts) {
    super(`gave up after ${attempts} attempts`);
    this.attempts = attempts;
  }
}

/** Generates the sequence of delays for a policy. */
function* delays(policy) {
  for (let i = 0; i < policy.maxAttempts; i++) yield backoff(policy.baseMs, i);
}

module.exports.withRetry = function withRetry(op) {
  return RetryPolicy.defaults.run(op);
};

export { delays };
export * from "./strategies.js";

// Specs beside the code (mocha): each describe/it block is a symbol named by its title.
describe("backoff", function () {
  it("doubles the delay each attempt", function () {
    assert.equal(backoff(100, 2), 400);
  });
});

it("gives up after maxAttempts", function () {
  assert.throws(() => withRetry(() => { throw new Error("down"); }));
});
