import SQLKit

/// SQL text built by concatenation, so that a statement is written once for both of its forms:
/// plain text (a PostgreSQL named statement with numbered parameters, `PostgresNamedStatements`)
/// or SQLKit's query string with its binds.
protocol SQLText: ExpressibleByStringLiteral {
    /// `text` as it is: SQL the code wrote, never a value.
    static func raw(_ text: String) -> Self
    static func + (lhs: Self, rhs: Self) -> Self
}

extension String: SQLText {
    static func raw(_ text: String) -> String { text }
}

extension SQLQueryString: SQLText {
    static func raw(_ text: String) -> SQLQueryString { "\(unsafeRaw: text)" }
}
