using System;
using System.Threading;
using Sys = System.Diagnostics;

namespace Example.Retry
{
    /// <summary>Outcome of a retried operation.</summary>
    public enum Outcome
    {
        Success,
        Exhausted,
    }

    /// <summary>Something that can pause the current thread.</summary>
    public interface ISleeper
    {
        void Sleep(TimeSpan delay);
    }

    /// <summary>Immutable snapshot of retry counters.</summary>
    public record RetryStats(int Attempts, int Failures);

    /// <summary>A point in time paired with an attempt number.</summary>
    public struct AttemptInfo
    {
        public int Number;
        public DateTime StartedAt;
    }

    /// <summary>
    /// Describes how often and how long to retry an operation.
    /// </summary>
    public class RetryPolicy
    {
        /// <summary>Default number of attempts before giving up.</summary>
        public const int MaxAttempts = 5;

        private readonly TimeSpan _baseDelay;
        private readonly ISleeper _sleeper;

        /// <summary>Creates a policy with the default attempt count.</summary>
        public RetryPolicy(TimeSpan baseDelay, ISleeper sleeper)
        {
            _baseDelay = baseDelay;
            _sleeper = sleeper;
        }

        /// <summary>Number of attempts made so far.</summary>
        public int Attempts { get; private set; }

        /// <summary>Computes the delay before the given attempt (0-based).</summary>
        public static TimeSpan Backoff(TimeSpan baseDelay, int attempt)
        {
            return TimeSpan.FromTicks(baseDelay.Ticks << attempt);
        }

        /// <summary>Runs op until it succeeds or the policy is exhausted.</summary>
        [Obsolete("Use RunAsync")]
        public Outcome Run(Func<bool> op)
        {
            for (var attempt = 0; attempt < MaxAttempts; attempt++)
            {
                Attempts++;
                if (op())
                {
                    return Outcome.Success;
                }
                Sys.Debug.WriteLine("retrying");
                _sleeper.Sleep(Backoff(_baseDelay, attempt));
            }
            return Outcome.Exhausted;
        }
    }

    /// <summary>Sleeps using Thread.Sleep.</summary>
    public sealed class ThreadSleeper : ISleeper
    {
        public void Sleep(TimeSpan delay) => Thread.Sleep(delay);

        public static RetryPolicy CreateDefault() => new RetryPolicy(TimeSpan.FromMilliseconds(100), new ThreadSleeper());
    }
}
