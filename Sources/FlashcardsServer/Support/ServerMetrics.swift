import Foundation
import Metrics
import NIOConcurrencyHelpers
import Prometheus

/// The process's metrics in one Prometheus registry: Vapor's own request metrics (it reports
/// `http_requests_total`, `http_request_errors_total` and the `http_request_duration_seconds`
/// histogram per route pattern through swift-metrics) and the server's (`flashcards_*`).
///
/// Off unless `FLASHCARDS_METRICS_TOKEN` is set: then `configure` bootstraps swift-metrics with
/// this registry, once per process, and `GET /metrics` answers the scraper that sends the token.
/// Without it every metric below is swift-metrics' no-op.
enum ServerMetrics {
    static let registry = PrometheusCollectorRegistry()

    private static let bootstrapped: Void = {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Request latencies from 1 ms to 10 s; the learning path's p99 lies in the first buckets.
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        MetricsSystem.bootstrap(factory)
        enabled.withLockedValue { $0 = true }
    }()

    /// Whether metrics are on in this process: the learning path's database waits are not even timed
    /// while they are off.
    private static let enabled = NIOLockedValueBox(false)

    /// Makes swift-metrics report into `registry` (the first call does it; later ones do nothing).
    static func bootstrap() { _ = bootstrapped }

    /// The start of a database wait, or nil while metrics are off (`databaseWaited` then does nothing).
    static func waitStarts() -> ContinuousClock.Instant? {
        enabled.withLockedValue { $0 } ? ContinuousClock.now : nil
    }

    /// A push message handed to a push service: `result` is `sent`, `gone` (the subscription
    /// expired) or `failed`.
    static func pushSent(result: String) {
        Counter(label: "flashcards_push_sends_total", dimensions: [("result", result)]).increment()
    }

    /// A mail handed to the SMTP server (`sent`) or not (`failed`).
    static func mailSent(result: String) {
        Counter(label: "flashcards_mail_sends_total", dimensions: [("result", result)]).increment()
    }

    /// How long a statement waited for the database before it could run: a SQLite write for the
    /// write gate, a PostgreSQL statement or transaction for a pooled connection.
    static func databaseWaited(since start: ContinuousClock.Instant?, database: String) {
        guard let start else { return }
        let waited = ContinuousClock.now - start
        let (seconds, attoseconds) = waited.components
        Metrics.Timer(label: "flashcards_database_wait_seconds", dimensions: [("database", database)])
            .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Sets the job queue's gauges from the database's rows: jobs per kind and status, and the age of
    /// the oldest queued one per kind (0 when none is queued).
    static func recordQueue(_ rows: [OperationsStore.QueueRow], now: Date, kinds: [String]) {
        for kind in kinds {
            for status in ["queued", "running"] {
                let row = rows.first { $0.kind == kind && $0.status == status }
                Gauge(label: "flashcards_jobs", dimensions: [("kind", kind), ("status", status)])
                    .record(row?.n ?? 0)
            }
            let oldest = rows.first { $0.kind == kind && $0.status == "queued" }?.oldest
            Gauge(label: "flashcards_jobs_oldest_queued_seconds", dimensions: [("kind", kind)])
                .record(max(0, oldest.map { now.timeIntervalSince($0) } ?? 0))
        }
    }
}
