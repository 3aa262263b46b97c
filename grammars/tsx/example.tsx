// RetryPanel.tsx - UI for configuring retry policies.
import React, { useState } from "react";
import { Button } from "./components/Button";

/** Default number of attempts before giving up. */
export const MAX_ATTEMPTS = 5;

/** Visual state of a retry attempt. */
export enum AttemptStatus {
  Pending,
  Failed,
  Succeeded,
}

/** Props accepted by {@link RetryPanel}. */
export interface RetryPanelProps {
  maxAttempts?: number;
  baseDelayMs: number;
  onRetry(attempt: number): Promise<boolean>;
}

type Attempt = { index: number; status: AttemptStatus };

/** Computes the delay in milliseconds before the given attempt (0-based). */
export function backoff(baseMs: number, attempt: number): number {
  return baseMs * 2 ** attempt;
}

/** One row in the attempt history. */
const AttemptRow = ({ attempt }: { attempt: Attempt }) => (
  <li className="attempt">
    #{attempt.index + 1}: {AttemptStatus[attempt.status]}
  </li>
);

/**
 * Describes how often and how long to retry, and runs attempts on demand.
 */
export class RetryPolicy {
  constructor(readonly maxAttempts: number, readonly baseDelayMs: number) {}

  /** Returns the delay before the given attempt. */
  delayFor(attempt: number): number {
    return backoff(this.baseDelayMs, attempt);
  }
}

/** Panel that retries an operation and shows each attempt. */
export function RetryPanel({ maxAttempts = MAX_ATTEMPTS, baseDelayMs, onRetry }: RetryPanelProps) {
  const [attempts, setAttempts] = useState<Attempt[]>([]);
  const policy = new RetryPolicy(maxAttempts, baseDelayMs);

  const handleClick = async () => {
    for (let i = 0; i < policy.maxAttempts; i++) {
      const ok = await onRetry(i);
      setAttempts((prev) => [...prev, { index: i, status: ok ? AttemptStatus.Succeeded : AttemptStatus.Failed }]);
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, policy.delayFor(i)));
    }
  };

  return (
    <div>
      <Button onClick={handleClick}>Retry</Button>
      <ul>
        {attempts.map((a) => (
          <AttemptRow key={a.index} attempt={a} />
        ))}
      </ul>
    </div>
  );
}
