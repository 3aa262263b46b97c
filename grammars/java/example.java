package com.example.retry;

import java.time.Duration;
import java.util.function.Supplier;
import static java.lang.Math.min;

/** Outcome of a retried operation. */
enum Outcome {
    SUCCESS,
    EXHAUSTED
}

/** Something that can pause the current thread. */
interface Sleeper {
    void sleep(Duration delay) throws InterruptedException;
}

/** Immutable snapshot of retry counters. */
record RetryStats(int attempts, int failures) {}

/**
 * Describes how often and how long to retry an operation.
 */
public class RetryPolicy {
    /** Default number of attempts before giving up. */
    public static final int MAX_ATTEMPTS = 5;

    private final int maxAttempts;
    private final Duration baseDelay;
    private final Sleeper sleeper;

    /** Creates a policy with the default attempt count. */
    public RetryPolicy(Duration baseDelay, Sleeper sleeper) {
        this.maxAttempts = MAX_ATTEMPTS;
        this.baseDelay = baseDelay;
        this.sleeper = sleeper;
    }

    /** Computes the delay before the given attempt (0-based). */
    static Duration backoff(Duration base, int attempt) {
        return base.multipliedBy(1L << min(attempt, 30));
    }

    /** Runs op until it succeeds or the policy is exhausted. */
    public Outcome run(Supplier<Boolean> op) throws InterruptedException {
        for (int attempt = 0; attempt < maxAttempts; attempt++) {
            if (op.get()) {
                return Outcome.SUCCESS;
            }
            sleeper.sleep(backoff(baseDelay, attempt));
        }
        return Outcome.EXHAUSTED;
    }

    // Summarises the policy for logging.
    @Override
    public String toString() {
        return String.format("RetryPolicy(%d, %s)", maxAttempts, baseDelay);
    }

    /** Builder for {@link RetryPolicy}. */
    public static class Builder {
        private Duration baseDelay = Duration.ofMillis(100);

        public RetryPolicy build() {
            return new RetryPolicy(baseDelay, Thread::sleep);
        }
    }
}
