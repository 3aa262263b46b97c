// Package retry implements retry policies with exponential backoff.
package retry

import (
	"errors"
	"time"

	log "github.com/sirupsen/logrus"
)

// MaxAttempts is the default number of attempts before giving up.
const MaxAttempts = 5

// ErrExhausted is returned when every attempt failed.
var ErrExhausted = errors.New("retry: attempts exhausted")

// Operation is a unit of work that may fail transiently.
type Operation func() error

// Sleeper abstracts time.Sleep so tests can run instantly.
type Sleeper interface {
	Sleep(d time.Duration)
}

// RetryPolicy describes how often and how long to retry an operation.
type RetryPolicy struct {
	MaxAttempts int
	BaseDelay   time.Duration
	sleeper     Sleeper
}

// NewRetryPolicy returns a policy with sensible defaults.
func NewRetryPolicy(base time.Duration) *RetryPolicy {
	return &RetryPolicy{MaxAttempts: MaxAttempts, BaseDelay: base}
}

// Backoff computes the delay before the given attempt (0-based).
func Backoff(base time.Duration, attempt int) time.Duration {
	return base * time.Duration(1<<uint(attempt))
}

// Run executes op until it succeeds or the policy is exhausted.
func (p *RetryPolicy) Run(op Operation) error {
	for attempt := 0; attempt < p.MaxAttempts; attempt++ {
		if err := op(); err == nil {
			return nil
		}
		p.wait(attempt)
	}
	return ErrExhausted
}

// wait sleeps for the backoff delay of the given attempt.
func (p RetryPolicy) wait(attempt int) {
	delay := Backoff(p.BaseDelay, attempt)
	log.Debugf("retrying in %s", delay)
	if p.sleeper != nil {
		p.sleeper.Sleep(delay)
		return
	}
	time.Sleep(delay)
}
