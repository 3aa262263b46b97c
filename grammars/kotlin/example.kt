package com.example.retry

import java.time.Duration
import kotlinx.coroutines.delay as sleep
import kotlin.math.*

/** Default number of attempts before giving up. */
const val MAX_ATTEMPTS = 5

/** Outcome of a retried operation. */
enum class Outcome { SUCCESS, EXHAUSTED }

/** Something that can pause the current coroutine. */
interface Sleeper {
    suspend fun pause(delay: Duration)
}

/** Immutable snapshot of retry counters. */
data class RetryStats(val attempts: Int, val failures: Int)

/** An operation that may fail transiently. */
typealias Operation<T> = suspend () -> T

/** Computes the delay before the given attempt (0-based). */
fun backoff(base: Duration, attempt: Int): Duration =
    base.multipliedBy(2.0.pow(attempt).toLong())

/**
 * Describes how often and how long to retry an operation.
 */
class RetryPolicy(
    private val baseDelay: Duration,
    private val maxAttempts: Int = MAX_ATTEMPTS,
) {
    private var stats = RetryStats(0, 0)

    /** Runs [op] until it succeeds or the policy is exhausted. */
    suspend fun <T> run(op: Operation<T>): Result<T> {
        for (attempt in 0 until maxAttempts) {
            try {
                return Result.success(op())
            } catch (e: IllegalStateException) {
                stats = stats.copy(failures = stats.failures + 1)
                sleep(backoff(baseDelay, attempt).toMillis())
            }
        }
        return Result.failure(IllegalStateException("gave up after $maxAttempts attempts"))
    }

    companion object {
        /** Builds a policy suitable for network calls. */
        fun forNetwork(): RetryPolicy = RetryPolicy(Duration.ofMillis(500))
    }
}

/** Shared default policy. */
object DefaultPolicy : Sleeper {
    override suspend fun pause(delay: Duration) = sleep(delay.toMillis())
}
