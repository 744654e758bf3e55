import Fluent
import SQLKit
import Vapor

/// Requires a valid token (raw or `Bearer`) of an existing account; everything else is a 401.
/// The account is loaded once per request, so a deleted account's tokens stop working at once.
struct RequireUserMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let header = request.headers.first(name: .authorization) else { throw AppError.unauthorized }
        var token = header.trimmingCharacters(in: .whitespaces)
        if token.lowercased().hasPrefix("bearer ") {
            token = String(token.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        guard !token.isEmpty, token.count < 4_096,
            let claims = await request.application.tokens.verify(token, now: request.now)
        else { throw AppError.unauthorized }
        // Routes of one stack read the caller's stack in the same statement as the account (one
        // database round trip less on every learning request); `StackService.find` takes it from there.
        let stackId = request.parameters.get("stackId").flatMap(UUID.init(uuidString:))
        let stackColumns: SQLQueryString =
            stackId == nil
            ? ""
            : ", "
                + Self.stackColumns.map { "stacks.\(ident: $0) AS \(ident: Self.stackPrefix + $0)" }
                .joined(separator: ", ")
        let stackJoin: SQLQueryString =
            stackId.map { "LEFT JOIN stacks ON stacks.user_id = users.id AND stacks.unique_id = \(bind: $0)" } ?? ""
        guard
            let row = try await request.db.sql.raw(
                "SELECT users.*\(stackColumns) FROM users \(stackJoin) WHERE users.id = \(bind: claims.userId)"
            ).first()
        else { throw AppError.unauthorized }
        let user = try row.decode(fluentModel: UserModel.self)
        guard user.tokenVersion == claims.version else { throw AppError.unauthorized }
        request.storage[CurrentUserKey.self] = user
        if stackId != nil, try !row.decodeNil(column: Self.stackPrefix + "id") {
            let stack = StackModel()
            try stack.output(from: PrefixedOutput(row: row, prefix: Self.stackPrefix))
            request.storage[PreloadedStackKey.self] = stack
        }
        return try await next.respond(to: request)
    }

    private static let stackPrefix = "stack__"
    private static let stackColumns = StackModel.keys.map(\.description)
}

/// A row's columns whose names carry `prefix`, as a Fluent model reads them.
private struct PrefixedOutput: DatabaseOutput {
    let row: any SQLRow
    let prefix: String

    var description: String { "\(prefix)* of \(row)" }
    func schema(_ schema: String) -> any DatabaseOutput { self }
    func contains(_ key: FieldKey) -> Bool { row.contains(column: prefix + key.description) }
    func decodeNil(_ key: FieldKey) throws -> Bool { try row.decodeNil(column: prefix + key.description) }
    func decode<T: Decodable>(_ key: FieldKey, as type: T.Type) throws -> T {
        try row.decode(column: prefix + key.description, as: T.self)
    }
}

private struct CurrentUserKey: StorageKey { typealias Value = UserModel }
private struct PreloadedStackKey: StorageKey { typealias Value = StackModel }

extension Request {
    /// The signed-in user; only valid behind ``RequireUserMiddleware``.
    var user: UserModel {
        get throws {
            guard let user = storage[CurrentUserKey.self] else { throw AppError.unauthorized }
            return user
        }
    }

    /// The stack named by the path's `stackId`, when it is the caller's and was read with the account.
    var preloadedStack: StackModel? { storage[PreloadedStackKey.self] }
}
