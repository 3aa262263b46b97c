//! Retry policies with exponential backoff.

use std::time::Duration;
use std::{fmt, thread};

mod clock;

/// Default number of attempts before giving up.
pub const MAX_ATTEMPTS: u32 = 5;

static DEFAULT_BASE_MS: u64 = 100;

/// Result type used by retryable operations.
pub type RetryResult<T> = Result<T, RetryError>;

/// Errors produced when a retry policy gives up.
#[derive(Debug)]
pub enum RetryError {
    Exhausted(u32),
    Aborted,
}

/// Something that can pause the current thread.
pub trait Sleeper {
    fn sleep(&self, delay: Duration);
}

/// Describes how often and how long to retry an operation.
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    pub max_attempts: u32,
    pub base_delay: Duration,
}

macro_rules! log_retry {
    ($attempt:expr) => {
        eprintln!("retry attempt {}", $attempt)
    };
}

/// Computes the delay before the given attempt (0-based).
pub fn backoff(base: Duration, attempt: u32) -> Duration {
    base * 2u32.pow(attempt)
}

impl RetryPolicy {
    /// Creates a policy with the default attempt count.
    pub fn new(base_delay: Duration) -> Self {
        RetryPolicy { max_attempts: MAX_ATTEMPTS, base_delay }
    }

    /// Runs `op` until it succeeds or the policy is exhausted.
    pub fn run<T, F>(&self, mut op: F) -> RetryResult<T>
    where
        F: FnMut() -> Option<T>,
    {
        for attempt in 0..self.max_attempts {
            if let Some(value) = op() {
                return Ok(value);
            }
            log_retry!(attempt);
            thread::sleep(backoff(self.base_delay, attempt));
        }
        Err(RetryError::Exhausted(self.max_attempts))
    }
}

impl fmt::Display for RetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetryError::Exhausted(n) => write!(f, "gave up after {} attempts", n),
            RetryError::Aborted => write!(f, "aborted"),
        }
    }
}
