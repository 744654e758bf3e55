import NIOConcurrencyHelpers

/// How SQLite counts the rows of an index range no further than a cap, for the due counts of the
/// learning path (`QueueOrder.dueCountLimit`).
///
/// `COUNT(*)` over a `LIMIT`ed subquery hands every row through a co-routine to the aggregate;
/// skipping rows with `OFFSET` to the cap's last one does less per row. So the count asks first
/// whether the range has a row at offset `cap - 1`, which answers `cap`, and only counts the range
/// exactly when it is shorter than that. A cap of 0 answers 0 (offset 0 finds the first row; an
/// empty range counts 0).
///
/// The trade-off (instruction counts under callgrind in docs/benchmarks.md): a range as long as the
/// cap costs less than with the co-routine, but a shorter one is read twice, by the probe and by the
/// count, and costs more. So where a range may go either way (a ladder
/// stack's due cards), the caller keeps which form its last count needed (`Hints`, one per
/// database: `InlineSQLite.cappedCountHints`) and writes the co-routine (`limitedText`) unless the
/// last count reached the cap. An FSRS stack counts reviews and new cards only up to today's caps
/// (usually a few hundred), and there the probe gives the count its laziness
/// (see `SQLiteStudyStore`).
enum SQLiteCappedCount {
    /// The count of `range` (`FROM … WHERE …`) up to `cap`; `cap` and `lastOffset` (`max(cap - 1,
    /// 0)`) are SQL: literals or placeholders, the latter written `+?` (see `SQLKeyBind`).
    static func text(_ range: String, cap: String, lastOffset: String) -> String {
        "COALESCE((SELECT \(cap) \(range) LIMIT 1 OFFSET \(lastOffset)), (SELECT COUNT(*) \(range)))"
    }

    /// The count of `range` up to the literal `cap` (at least 1).
    static func text(_ range: String, cap: Int) -> String {
        text(range, cap: String(cap), lastOffset: String(cap - 1))
    }

    /// The count of `range` up to the literal `cap` through a co-routine: cheaper than the probe when
    /// the range is shorter than the cap.
    static func limitedText(_ range: String, cap: Int) -> String {
        "(SELECT COUNT(*) FROM (SELECT 1 \(range) LIMIT \(cap)))"
    }

    /// Which keys (stack ids) of one database had a last count that reached the cap; at most
    /// `keptLimit`, emptied when full. Only speed depends on it: either form counts alike.
    final class Hints: Sendable {
        private let fullKeys = NIOLockedValueBox<Set<Int>>([])
        static let keptLimit = 4_096

        /// Whether the last count for `key` reached the cap (then probe).
        func full(_ key: Int) -> Bool {
            fullKeys.withLockedValue { $0.contains(key) }
        }

        /// Keeps whether the count for `key` reached the cap.
        func remember(_ key: Int, full: Bool) {
            fullKeys.withLockedValue { keys in
                if full {
                    if keys.count >= Self.keptLimit { keys.removeAll(keepingCapacity: true) }
                    keys.insert(key)
                } else {
                    keys.remove(key)
                }
            }
        }
    }
}
