/* retry.c - retry policies with exponential backoff. */
#include <stdio.h>
#include <unistd.h>
#include "retry.h"

/* Default number of attempts before giving up. */
#define MAX_ATTEMPTS 5
#define SQUARE(x) ((x) * (x))

static const unsigned int DEFAULT_BASE_MS = 100;

/* Outcome of a retried operation. */
enum retry_status {
    RETRY_OK,
    RETRY_EXHAUSTED
};

/* Describes how often and how long to retry an operation. */
struct retry_policy {
    unsigned int max_attempts;
    unsigned int base_delay_ms;
};

union retry_value {
    int code;
    void *payload;
};

/* Signature of an operation that may fail transiently. */
typedef int (*retry_op)(void *ctx);

typedef struct retry_policy RetryPolicy;

/* Computes the delay before the given attempt (0-based). */
unsigned int backoff(unsigned int base_ms, unsigned int attempt)
{
    return base_ms << attempt;
}

/* Creates a heap-allocated policy with default settings. */
struct retry_policy *retry_policy_new(unsigned int base_delay_ms);

/* Initialises a policy with the default attempt count. */
static void retry_policy_init(RetryPolicy *policy, unsigned int base_delay_ms)
{
    policy->max_attempts = MAX_ATTEMPTS;
    policy->base_delay_ms = base_delay_ms;
}

/* Runs op until it succeeds or the policy is exhausted. */
enum retry_status retry_run(const RetryPolicy *policy, retry_op op, void *ctx)
{
    unsigned int attempt;
    for (attempt = 0; attempt < policy->max_attempts; attempt++) {
        if (op(ctx) == 0) {
            return RETRY_OK;
        }
        fprintf(stderr, "retrying (attempt %u)\n", attempt);
        usleep(backoff(policy->base_delay_ms, attempt) * 1000);
    }
    return RETRY_EXHAUSTED;
}

/* Returns a pointer to the shared default policy. */
const RetryPolicy *retry_default_policy(void)
{
    static RetryPolicy policy;
    retry_policy_init(&policy, DEFAULT_BASE_MS);
    return &policy;
}
