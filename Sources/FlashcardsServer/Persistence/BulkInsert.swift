import FluentPostgresDriver
import Foundation
import SQLKit
import SQLiteNIO

/// A value of a bulk-inserted row, stored as Fluent stores it on each database.
enum StoredValue: Sendable {
    case null
    case int(Int)
    case double(Double)
    case text(String)
    case bool(Bool)
    case date(Date)
    case uuid(UUID)

    /// SQLite's form, as Fluent's SQLite encoder writes it (dates as seconds since 1970, UUIDs as
    /// upper-case text, booleans as 0 and 1).
    var sqlite: SQLiteData {
        switch self {
        case .null: .null
        case .int(let value): .integer(value)
        case .double(let value): .float(value)
        case .text(let value): .text(value)
        case .bool(let value): .integer(value ? 1 : 0)
        case .date(let value): .float(value.timeIntervalSince1970)
        case .uuid(let value): .text(value.uuidString)
        }
    }
}

/// Many rows at once, written the fastest way each database has: on SQLite many rows per `INSERT`
/// with the values handed to SQLite as they are (through SQLKit every bound value is cast and
/// encoded on its own, which was most of an import's time), run on the thread pool inside a write
/// transaction of the inline writer; on PostgreSQL one `COPY` (`PostgresCopy`).
enum BulkInsert {
    /// Rows per SQLite statement: at most SQLite's 32,766 bound parameters.
    private static func sqliteBatch(columns: Int) -> Int { max(1, 32_000 / columns) }

    static func run(into table: String, columns: [String], rows: [[StoredValue]], on sql: any SQLDatabase)
        async throws
    {
        guard !rows.isEmpty else { return }
        if let postgres = sql as? any PostgresDatabase {
            try await PostgresCopy.run(into: table, columns: columns, rows: rows, on: postgres)
            return
        }
        let placeholders = "(" + Array(repeating: "?", count: columns.count).joined(separator: ",") + ")"
        let head = "INSERT INTO \"\(table)\" (\(columns.map { "\"\($0)\"" }.joined(separator: ","))) VALUES "
        let batch = sqliteBatch(columns: columns.count)
        var statements: [Int: String] = [:]
        for start in stride(from: 0, to: rows.count, by: batch) {
            let slice = rows[start..<min(start + batch, rows.count)]
            let statement =
                statements[slice.count]
                ?? head + Array(repeating: placeholders, count: slice.count).joined(separator: ",")
            statements[slice.count] = statement
            var binds: [SQLiteData] = []
            binds.reserveCapacity(slice.count * columns.count)
            for row in slice { binds.append(contentsOf: row.lazy.map(\.sqlite)) }
            if let writer = sql as? any SQLiteLongWrites {
                try await writer.runOnThreadPool(statement, binds)
            } else {
                try await sql.raw("\(SQLiteStatement(text: statement, binds: binds))").run()
            }
        }
    }
}
