import Foundation
import SQLKit

/// The statements of accounts outside the learning path: revoked tokens, password reset links,
/// share links and the daily leaderboard. Both databases run them alike.
struct AccountStore {
    let sql: any SQLDatabase

    // MARK: Tokens

    /// Revokes token `tokenId` until `expiresAt`, and forgets revocations of tokens expired by `now`
    /// (the expiry refuses them).
    func revokeToken(_ tokenId: String, expiresAt: Date, now: Date) async throws {
        try await sql.insert(into: "revoked_tokens").columns("id", "expires_at")
            .values(SQLBind(tokenId), SQLBind(expiresAt))
            .ignoringConflicts(with: ["id"])
            .run()
        try await sql.delete(from: "revoked_tokens").where("expires_at", .lessThan, now).run()
    }

    /// Marks the single-use value `id` (an OAuth code) as spent until `expiresAt`: true the first
    /// time, false when it was spent already. One statement, so two exchanges cannot both win.
    func spendOnce(_ id: String, expiresAt: Date, now: Date) async throws -> Bool {
        let inserted = try await sql.insert(into: "revoked_tokens").columns("id", "expires_at")
            .values(SQLBind(id), SQLBind(expiresAt))
            .ignoringConflicts(with: ["id"])
            .returning("id")
            .all()
        try await sql.delete(from: "revoked_tokens").where("expires_at", .lessThan, now).run()
        return !inserted.isEmpty
    }

    // MARK: Password resets

    /// Stores a new reset link of `userId`'s: the earlier ones are spent, links long past their
    /// expiry forgotten.
    func addPasswordReset(id: UUID, userId: UUID, tokenHash: String, now: Date, expiresAt: Date) async throws {
        try await spendPasswordResets(of: userId, now: now)
        try await sql.delete(from: "password_resets")
            .where("user_id", .equal, userId)
            .where("expires_at", .lessThan, now.addingTimeInterval(-86_400))
            .run()
        try await sql.insert(into: "password_resets")
            .columns("id", "user_id", "token_hash", "created_at", "expires_at")
            .values(SQLBind(id), SQLBind(userId), SQLBind(tokenHash), SQLBind(now), SQLBind(expiresAt))
            .run()
    }

    /// Spends the unspent, unexpired link with this token hash and answers its account; nil when
    /// there is none. The conditional update is the check: of two uses at once, one finds the row
    /// unspent.
    func spendPasswordReset(tokenHash: String, now: Date) async throws -> UUID? {
        guard
            let row = try await sql.update("password_resets")
                .set("used_at", to: now)
                .where("token_hash", .equal, tokenHash)
                .where(SQLColumn("used_at"), .is, SQLLiteral.null)
                .where("expires_at", .greaterThan, now)
                .returning("user_id")
                .first()
        else { return nil }
        return try row.decode(column: "user_id", as: UUID.self)
    }

    /// Spends every unspent link of `userId`'s.
    func spendPasswordResets(of userId: UUID, now: Date) async throws {
        try await sql.update("password_resets")
            .set("used_at", to: now)
            .where("user_id", .equal, userId)
            .where(SQLColumn("used_at"), .is, SQLLiteral.null)
            .run()
    }

    /// Sets the account's password hash and raises its token version (every older token stops working).
    func setPassword(of userId: UUID, hash: String) async throws {
        try await sql.update("users")
            .set("password_hash", to: hash)
            .set("password_set", to: true)
            .set("token_version", to: SQLBinaryExpression(SQLColumn("token_version"), .add, SQLLiteral.numeric("1")))
            .where("id", .equal, userId)
            .run()
    }

    // MARK: Share links

    /// A share link as stored.
    struct ShareLink: Decodable {
        let token: String
        let created_at: Date
    }

    /// Stack `stackId`'s active link, if it has one.
    func shareLink(ofStack stackId: Int) async throws -> ShareLink? {
        try await sql.raw(
            """
            SELECT token, created_at FROM share_links
            WHERE stack_id = \(bind: stackId) AND revoked_at IS NULL ORDER BY created_at LIMIT 1
            """
        ).first(decoding: ShareLink.self)
    }

    /// Stores a new link.
    func addShareLink(token: String, stackId: Int, userId: UUID, now: Date) async throws {
        try await sql.insert(into: "share_links")
            .columns("token", "stack_id", "user_id", "created_at")
            .values(SQLBind(token), SQLBind(stackId), SQLBind(userId), SQLBind(now)).run()
    }

    /// Revokes stack `stackId`'s active link.
    func revokeShareLinks(ofStack stackId: Int, now: Date) async throws {
        try await sql.update("share_links").set("revoked_at", to: SQLBind(now))
            .where("stack_id", .equal, SQLBind(stackId)).where("revoked_at", .is, SQLLiteral.null).run()
    }

    /// The stack an active link with this token shows.
    func sharedStackId(token: String) async throws -> Int? {
        struct Row: Decodable { let stack_id: Int }
        return try await sql.raw(
            "SELECT stack_id FROM share_links WHERE token = \(bind: token) AND revoked_at IS NULL"
        ).first(decoding: Row.self)?.stack_id
    }

    // MARK: Leaderboard

    /// A learner's place on a board.
    struct BoardRow: Decodable {
        let user_id: UUID
        let name: String
        let value: Int
    }

    /// The learners who opted in with the number of distinct values of `column` (`card_id` or
    /// `stack_id`) among their reviews from `start` to `end`, undone reviews left out; most first,
    /// ties by name, then id.
    func board(counting column: BoardColumn, from start: Date, to end: Date) async throws -> [BoardRow] {
        try await sql.raw(
            """
            SELECT r.user_id AS user_id, u.name AS name, COUNT(DISTINCT r.\(unsafeRaw: column.rawValue)) AS value
            FROM learner_settings s
            JOIN users u ON u.id = s.user_id
            JOIN review_logs r ON r.user_id = s.user_id AND r.kind = 'review'
              AND r.reviewed_at >= \(bind: start) AND r.reviewed_at < \(bind: end)
            WHERE s.leaderboard_opt_in = \(bind: true)
              AND NOT EXISTS (SELECT 1 FROM review_logs x WHERE x.undoes = r.id)
            GROUP BY r.user_id, u.name
            ORDER BY value DESC, u.name, r.user_id
            """
        ).all(decoding: BoardRow.self)
    }

    /// What a board counts.
    enum BoardColumn: String {
        case cards = "card_id"
        case stacks = "stack_id"
    }
}

extension StudyStore {
    /// The account statements.
    var accounts: AccountStore { AccountStore(sql: sql) }
}

extension StudyTransaction {
    /// The account statements in this transaction.
    var accounts: AccountStore { AccountStore(sql: sql) }
}
