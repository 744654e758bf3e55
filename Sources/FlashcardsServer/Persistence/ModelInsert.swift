import Fluent
import SQLKit

extension Model where IDValue: Decodable {
    /// Inserts the model with SQLKit and sets its database-generated id: for transactions that run
    /// on an SQLKit handle without a Fluent database (the inline SQLite writer's). Columns and values
    /// come from the model's own fields, as Fluent's `create` writes them.
    func insert(on sql: any SQLDatabase) async throws {
        let input = ColumnValues()
        self.input(to: input)
        if let unsupported = input.unsupported {
            throw ModelInsertError(schema: Self.schema, column: unsupported)
        }
        let row = try await sql.insert(into: Self.schema).columns(input.columns).values(input.values)
            .returning("id").first(decoding: InsertedID<IDValue>.self)
        guard let row else { throw ModelInsertError(schema: Self.schema, column: "id") }
        id = row.id
    }
}

/// The id a `RETURNING id` gives back.
private struct InsertedID<ID: Decodable>: Decodable { let id: ID }

/// A model's fields as SQLKit column names and values (`DatabaseInput` is handed each field).
private final class ColumnValues: DatabaseInput {
    var columns: [String] = []
    var values: [any SQLExpression] = []
    var unsupported: String?

    var wantsUnmodifiedKeys: Bool { true }

    func set(_ value: DatabaseQuery.Value, at key: FieldKey) {
        switch value {
        case .bind(let bound):
            columns.append(key.description)
            values.append(SQLBind(bound))
        case .null:
            columns.append(key.description)
            values.append(SQLLiteral.null)
        case .default:
            break
        default:
            unsupported = key.description
        }
    }
}

/// A model with a field whose value SQLKit cannot insert as it is (a programming error).
struct ModelInsertError: Error, CustomStringConvertible {
    let schema: String
    let column: String
    var description: String { "cannot insert \(schema).\(column) through SQLKit" }
}
