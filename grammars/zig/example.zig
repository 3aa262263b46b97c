const std = @import("std");
const backoff = @import("backoff.zig");

/// How often a request is tried again.
pub const RetryPolicy = struct {
    max_attempts: u32 = 3,

    /// Delay before the next attempt.
    pub fn delay(self: RetryPolicy, attempt: u32) u64 {
        return backoff.exponential(attempt) * self.max_attempts;
    }
};

pub const Method = enum { get, post };

/// Makes a client.
pub fn makeClient(allocator: std.mem.Allocator) !Client {
    return Client.init(allocator, RetryPolicy{});
}

const MAX_TIMEOUT: u32 = 30;

test "delay grows" {
    try std.testing.expect(RetryPolicy.delay(.{}, 2) > 0);
}

test makeClient {
    _ = try makeClient(std.testing.allocator);
}

test {
    std.testing.refAllDecls(@This());
}

comptime {
    std.debug.assert(MAX_TIMEOUT > 0);
}
