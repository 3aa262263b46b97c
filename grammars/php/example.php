<?php

declare(strict_types=1);

namespace App\Retry;

use Psr\Log\LoggerInterface;
use App\Retry\Exception\{ExhaustedException, TransientException};

require_once __DIR__ . '/bootstrap.php';
include 'helpers.php';

/** Default number of attempts before giving up. */
const MAX_ATTEMPTS = 5;

/** Something that can pause the current process. */
interface Sleeper
{
    public function sleep(int $milliseconds): void;
}

/** Shared logging behaviour for retry components. */
trait LogsAttempts
{
    protected function logAttempt(LoggerInterface $logger, int $attempt): void
    {
        $logger->warning(sprintf('attempt %d failed', $attempt + 1));
    }
}

/** Computes the delay in milliseconds before the given attempt (0-based). */
function backoff(int $baseMs, int $attempt): int
{
    return $baseMs * (2 ** $attempt);
}

/**
 * Describes how often and how long to retry an operation.
 */
final class RetryPolicy
{
    use LogsAttempts;

    public const DEFAULT_BASE_MS = 100;

    public function __construct(
        private Sleeper $sleeper,
        private LoggerInterface $logger,
        private int $maxAttempts = MAX_ATTEMPTS,
    ) {
    }

    /** Runs $op until it succeeds or the policy is exhausted. */
    public function run(callable $op): mixed
    {
        for ($attempt = 0; $attempt < $this->maxAttempts; $attempt++) {
            try {
                return $op();
            } catch (TransientException $e) {
                $this->logAttempt($this->logger, $attempt);
                $this->sleeper->sleep(backoff(self::DEFAULT_BASE_MS, $attempt));
            }
        }
        throw new ExhaustedException($this->maxAttempts);
    }

    /** Creates a policy that never sleeps, for tests. */
    public static function forTesting(LoggerInterface $logger): self
    {
        return new self(new NullSleeper(), $logger);
    }
}

// Pest tests beside the code: each describe block, and each test at the top, is a symbol.
describe('RetryPolicy', function () {
    it('gives up after the last attempt', function () {
        expect(RetryPolicy::forTesting(new NullLogger())->maxAttempts())->toBe(3);
    });
});

test('backoff doubles', fn () => expect(true)->toBeTrue());
