import Foundation
import SQLKit

/// Time grouped in 15-minute buckets before Swift maps them to learner days: SQLite knows no time
/// zones, and 15 minutes divides every time zone offset in use, so no bucket straddles a day rollover.
enum TimeBuckets {
    /// The width of a bucket.
    static let seconds = 900

    /// Row counts per bucket of `column`, as (bucket start, count); `bucket` is the store's
    /// expression for the column's bucket number.
    static func counts(
        table: String, column: String, filter: SQLQueryString, sql: any SQLDatabase, bucket: SQLQueryString
    ) async throws -> [(Date, Int)] {
        struct Row: Decodable {
            let b: Int
            let n: Int
        }
        let rows = try await sql.raw(
            "SELECT \(bucket) AS b, COUNT(*) AS n FROM \(ident: table) WHERE \(filter) GROUP BY b"
        ).all(decoding: Row.self)
        return rows.map { (start(ofBucket: $0.b), $0.n) }
    }

    /// The start of bucket number `bucket`.
    static func start(ofBucket bucket: Int) -> Date {
        Date(timeIntervalSince1970: Double(bucket * seconds))
    }
}
