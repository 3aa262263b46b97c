import Foundation
import Alamofire

/// How often a request is tried again.
public struct RetryPolicy {
    /// The most attempts.
    let maxAttempts: Int

    /// Delay before the next attempt.
    func delay(attempt: Int) -> Double {
        return pow(2.0, Double(attempt))
    }
}

/// Sends a request, answers a response.
protocol Transport {
    func send(_ request: Request) throws -> Response
}

/// A client that retries.
class Client: Transport {
    var policy = RetryPolicy(maxAttempts: 3)

    init(policy: RetryPolicy) {
        self.policy = policy
    }

    func send(_ request: Request) throws -> Response {
        let wait = policy.delay(attempt: 1)
        return try perform(request, after: wait)
    }
}

extension Client {
    func close() {}
}

/// HTTP methods the client knows.
enum Method: String {
    case get, post
}

func makeClient() -> Client {
    return Client(policy: RetryPolicy(maxAttempts: 5))
}

let DEFAULT_TIMEOUT = 30
typealias Handler = (Response) -> Void
