// retry.cpp - retry policies with exponential backoff.
#include <chrono>
#include <functional>
#include <thread>
#include "retry/logging.h"

#define RETRY_LOG(msg) ::retry::log_line(__FILE__, __LINE__, (msg))

namespace retry {

// Default number of attempts before giving up.
constexpr int kMaxAttempts = 5;

// Outcome of a retried operation.
enum class Outcome { Success, Exhausted };

using Clock = std::chrono::steady_clock;

// Computes the delay before the given attempt (0-based).
std::chrono::milliseconds backoff(std::chrono::milliseconds base, int attempt) {
    return base * (1 << attempt);
}

// Per-policy counters.
struct RetryStats {
    int attempts = 0;
    int failures = 0;
};

// Describes how often and how long to retry an operation.
class RetryPolicy {
public:
    explicit RetryPolicy(std::chrono::milliseconds base_delay)
        : max_attempts_(kMaxAttempts), base_delay_(base_delay) {}

    // Maximum number of attempts.
    int max_attempts() const { return max_attempts_; }

    Outcome run(const std::function<bool()>& op);

private:
    void wait(int attempt) const;

    int max_attempts_;
    std::chrono::milliseconds base_delay_;
    RetryStats stats_;
};

// Runs op until it succeeds or the policy is exhausted.
Outcome RetryPolicy::run(const std::function<bool()>& op) {
    for (int attempt = 0; attempt < max_attempts(); ++attempt) {
        stats_.attempts++;
        if (op()) {
            return Outcome::Success;
        }
        stats_.failures++;
        RETRY_LOG("operation failed");
        wait(attempt);
    }
    return Outcome::Exhausted;
}

// Sleeps for the backoff delay of the given attempt.
void RetryPolicy::wait(int attempt) const {
    std::this_thread::sleep_for(backoff(base_delay_, attempt));
}

// Retries fn with a default policy.
template <typename Fn>
Outcome with_retry(Fn&& fn) {
    RetryPolicy policy(std::chrono::milliseconds(100));
    return policy.run(std::forward<Fn>(fn));
}

}  // namespace retry
