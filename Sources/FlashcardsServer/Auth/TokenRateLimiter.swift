import Foundation
import NIOConcurrencyHelpers
import Vapor

/// The rate limit of personal access tokens: a bucket per token that holds a quarter of a minute's
/// allowance and refills evenly (`AppConfiguration.tokenRequestsPerMinute`). Kept in memory: each
/// instance of the server limits on its own, which bounds a runaway assistant all the same.
final class TokenRateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private let perMinute: Double
    private let buckets = NIOLockedValueBox<[UUID: Bucket]>([:])

    init(perMinute: Int) {
        self.perMinute = Double(perMinute)
    }

    private var capacity: Double { max(1, (perMinute / 4).rounded(.down)) }

    /// Nil when the token may make a request now (and it is counted); otherwise the seconds to wait.
    func retryAfter(_ tokenId: UUID, now: Date) -> Int? {
        let perSecond = perMinute / 60
        let capacity = self.capacity
        return buckets.withLockedValue { buckets in
            var bucket = buckets[tokenId] ?? Bucket(tokens: capacity, updated: now)
            let elapsed = max(0, now.timeIntervalSince(bucket.updated))
            bucket.tokens = min(capacity, bucket.tokens + elapsed * perSecond)
            bucket.updated = now
            defer {
                buckets[tokenId] = bucket
                // Full buckets carry no information: drop them now and then, so the table stays small.
                if buckets.count > 10_000 { buckets = buckets.filter { $0.value.tokens < capacity } }
            }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }
}

extension Application {
    private struct TokenRateLimiterKey: StorageKey { typealias Value = TokenRateLimiter }

    /// The personal access tokens' rate limit (set up by `configure(_:)`).
    var tokenRateLimiter: TokenRateLimiter {
        get {
            guard let limiter = storage[TokenRateLimiterKey.self] else {
                fatalError("TokenRateLimiter used before configure(_:) set it up")
            }
            return limiter
        }
        set { storage[TokenRateLimiterKey.self] = newValue }
    }
}
