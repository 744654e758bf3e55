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
        // Routes of one stack read the caller's stack and FSRS parameters in the same statement as
        // the account (database round trips less on every learning request); `StackService.find` and
        // `StudyService.scheduling` take them from there.
        let stackId = request.parameters.get("stackId").flatMap(UUID.init(uuidString:))
        let extra: SQLQueryString
        if let stackId {
            extra =
                "\(unsafeRaw: Self.stackColumnList) FROM users"
                + " LEFT JOIN stacks ON stacks.user_id = users.id AND stacks.unique_id = \(key: stackId)"
        } else {
            extra = " FROM users"
        }
        guard
            let row = try await request.sql.raw("SELECT users.*\(extra) WHERE users.id = \(key: claims.userId)")
                .first()
        else { throw AppError.unauthorized }
        let user = UserModel()
        try user.read(from: PrefixedOutput(row: row, prefix: ""))
        guard user.tokenVersion == claims.version else { throw AppError.unauthorized }
        request.storage[CurrentUserKey.self] = user
        if stackId != nil {
            request.storage[PreloadedParametersKey.self] = PreloadedParameters(
                text: try row.decode(column: Self.parametersColumn, as: String?.self))
            if try !row.decodeNil(column: Self.stackPrefix + "id") {
                let stack = StackModel()
                try stack.read(from: PrefixedOutput(row: row, prefix: Self.stackPrefix))
                request.storage[PreloadedStackKey.self] = stack
            }
        }
        return try await next.respond(to: request)
    }

    private static let stackPrefix = "stack__"
    private static let parametersColumn = "fsrs_parameters__"
    /// The stack's columns under prefixed names and the parameters, as SQL text made once (SQLite and
    /// PostgreSQL quote identifiers alike; the names are the models' own).
    private static let stackColumnList =
        StackModel.keys.map { ", stacks.\"\($0.description)\" AS \"\(stackPrefix)\($0.description)\"" }.joined()
        + ", (SELECT parameters FROM scheduler_parameters WHERE user_id = users.id) AS \"\(parametersColumn)\""
}

/// A row's columns whose names carry `prefix`, as a Fluent model reads them.
struct PrefixedOutput: DatabaseOutput {
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
private struct PreloadedParametersKey: StorageKey { typealias Value = PreloadedParameters }

/// The caller's stored FSRS parameters as read with the account: `text` is nil when they have none.
struct PreloadedParameters: Sendable {
    let text: String?
}

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

    /// The caller's FSRS parameters, when they were read with the account.
    var preloadedParameters: PreloadedParameters? { storage[PreloadedParametersKey.self] }
}
