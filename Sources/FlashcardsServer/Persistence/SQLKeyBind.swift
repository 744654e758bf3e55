import SQLKit

/// A bound value that selects rows by equality (a key) or limits them (a `LIMIT`), written so that
/// SQLite's planner does not look at the value. SQLite 3.54 inspects such values while planning some
/// statements (an equality before an `ORDER BY` on the same index, a `LEFT JOIN`, a limit of a
/// subquery) and then prepares the statement again every time the value is bound, which on the
/// learning path cost as much as running it. A unary plus leaves index use as it is (`EXPLAIN QUERY
/// PLAN` is unchanged) but hides the value from the planner. PostgreSQL gets the plain parameter (it
/// has no unary plus for every type).
struct SQLKeyBind: SQLExpression {
    let value: any Encodable & Sendable

    func serialize(to serializer: inout SQLSerializer) {
        if serializer.dialect.name == "sqlite" { serializer.write("+") }
        serializer.write(bind: value)
    }
}

extension SQLQueryString {
    /// `\(key: value)`: a bound key value (see `SQLKeyBind`).
    mutating func appendInterpolation(key value: any Encodable & Sendable) {
        appendInterpolation(SQLKeyBind(value: value))
    }

    /// `LIMIT \(limit: count)`: a bound row limit (see `SQLKeyBind`).
    mutating func appendInterpolation(limit count: Int) {
        appendInterpolation(SQLKeyBind(value: count))
    }
}
