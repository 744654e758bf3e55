/// How SQLite counts the rows of an index range no further than a cap, for the due counts of the
/// learning path (`StudyService.dueCountLimit`).
///
/// `COUNT(*)` over a `LIMIT`ed subquery hands every row through a co-routine to the aggregate;
/// skipping rows with `OFFSET` to the cap's last one does less per row (about a third fewer
/// instructions under callgrind for 1,000 rows of `cards_stack_due`). So the count asks first
/// whether the range has a row at offset `cap - 1`, which answers `cap`, and only counts the range
/// exactly when it is shorter than that. A cap of 0 answers 0 (offset 0 finds the first row; an
/// empty range counts 0).
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
