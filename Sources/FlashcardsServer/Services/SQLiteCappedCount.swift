/// How SQLite counts the rows of an index range no further than a cap, for the due counts of the
/// learning path (`StudyService.dueCountLimit`).
///
/// `COUNT(*)` over a `LIMIT`ed subquery hands every row through a co-routine to the aggregate;
/// skipping rows with `OFFSET` to the cap's last one does less per row. So the count asks first
/// whether the range has a row at offset `cap - 1`, which answers `cap`, and only counts the range
/// exactly when it is shorter than that. A cap of 0 answers 0 (offset 0 finds the first row; an
/// empty range counts 0).
///
/// The trade-off (callgrind, `cards_stack_due`, cap 1,000): a range of 1,000 or more costs 343k
/// instructions against 509k with the co-routine, but a shorter one is read twice, by the probe and
/// by the count: 899 rows cost 602k against 441k. Ranges that reach the cap are the expensive ones
/// (a large ladder stack's backlog); an FSRS stack's reviews and new cards are counted only up to
/// today's caps, usually a few hundred.
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
}
