package com.example.retry

import scala.concurrent.duration._
import com.example.http.{Request, Response}

/** How often a request is tried again. */
case class RetryPolicy(maxAttempts: Int, base: FiniteDuration) {
  /** Delay before the next attempt. */
  def delay(attempt: Int): FiniteDuration = base * math.pow(2, attempt).toLong
}

/** Sends requests. */
trait Transport {
  def send(request: Request): Response
}

object RetryPolicy {
  val MaxAttempts = 5
  def default: RetryPolicy = RetryPolicy(MaxAttempts, 100.millis)
}

class Client(policy: RetryPolicy) extends Transport {
  override def send(request: Request): Response = {
    val wait = policy.delay(1)
    perform(request, wait)
  }
}

enum Method {
  case Get, Post
}

type Handler = Response => Unit
