import Fluent
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

    /// The bind for SQLKit (PostgreSQL).
    var bind: any SQLExpression {
        switch self {
        case .null: SQLLiteral.null
        case .int(let value): SQLBind(value)
        case .double(let value): SQLBind(value)
        case .text(let value): SQLBind(value)
        case .bool(let value): SQLBind(value)
        case .date(let value): SQLBind(value)
        case .uuid(let value): SQLBind(value)
        }
    }
}

/// Many rows in one `INSERT`. On SQLite the values go to the driver as they are: through SQLKit
/// every bound value is cast and encoded on its own, which was most of an import's time.
enum BulkInsert {
    static func run(into table: String, columns: [String], rows: [[StoredValue]], on db: any Database) async throws {
        guard !rows.isEmpty else { return }
        if let sqlite = db as? any SQLiteDatabase {
            let placeholders = "(" + Array(repeating: "?", count: columns.count).joined(separator: ",") + ")"
            let statement =
                "INSERT INTO \"\(table)\" (\(columns.map { "\"\($0)\"" }.joined(separator: ","))) VALUES "
                + Array(repeating: placeholders, count: rows.count).joined(separator: ",")
            var binds: [SQLiteData] = []
            binds.reserveCapacity(rows.count * columns.count)
            for row in rows { binds.append(contentsOf: row.lazy.map(\.sqlite)) }
            _ = try await sqlite.query(statement, binds)
        } else {
            try await db.sql.insert(into: table).columns(columns).rows(rows.map { $0.map(\.bind) }).run()
        }
    }
}
