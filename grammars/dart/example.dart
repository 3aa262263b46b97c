import 'dart:math';
import 'package:http/http.dart' as http;
import 'src/backoff.dart';

/// How often a request is tried again.
class RetryPolicy {
  /// The most attempts.
  final int maxAttempts;

  const RetryPolicy({this.maxAttempts = 3});

  /// Delay before the next attempt.
  Duration delay(int attempt) => Duration(milliseconds: pow(2, attempt).toInt());
}

abstract class Transport {
  Future<Response> send(Request request);
}

mixin Logging {
  void log(String message) => print(message);
}

class Client extends Transport with Logging {
  final RetryPolicy policy;
  Client(this.policy);

  @override
  Future<Response> send(Request request) async {
    final wait = policy.delay(1);
    log('waiting $wait');
    return perform(request, wait);
  }
}

enum Method { get, post }

extension ClientX on Client {
  void close() {}
}

const defaultTimeout = 30;

Client makeClient() => Client(const RetryPolicy(maxAttempts: 5));
typedef Handler = void Function(Response);
