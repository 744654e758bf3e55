import ArgumentParser
import FlashcardsServer
import Foundation

/// `flashcards backup`: an online backup of the SQLite database while the server runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up the SQLite database to a new file while the server keeps running (operators).",
        discussion: """
            Uses SQLite's online backup API: a consistent snapshot, checked before it is kept. The database is the \\
            one the server uses (FLASHCARDS_DATA_DIR, .env). PostgreSQL databases are backed up with pg_dump. \\
            Restore with: flashcards restore FILE (server stopped). See docs/operations.md.
            """)

    @Argument(help: "The backup file to write (must not exist).") var file: String

    func run() throws {
        let database = try sqliteDatabase()
        let copied = try perform { try SQLiteBackup.backup(from: database, to: file) }
        print("Backed up \(database) to \(file) (\(copied.pages) pages, \(megabytes(copied.bytes))).")
    }
}

/// `flashcards restore`: puts a backup in place of the SQLite database (server stopped).
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the SQLite database with a backup made by flashcards backup (stop the server first).",
        discussion: """
            The backup is checked first (intact, a Smart Flashcards database); the current database is overwritten \\
            only when no server has it open. Migrations newer than the backup run at the next start.
            """)

    @Argument(help: "The backup file to restore.") var file: String

    func run() throws {
        let database = try sqliteDatabase()
        try FileManager.default.createDirectory(
            atPath: (database as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let copied = try perform { try SQLiteBackup.restore(from: file, to: database) }
        print("Restored \(file) to \(database) (\(copied.pages) pages, \(megabytes(copied.bytes))).")
    }
}

/// The configured SQLite database file, or a clear error for PostgreSQL.
private func sqliteDatabase() throws -> String {
    guard let file = try loadConfiguration().sqliteFile else {
        throw CleanExitError(
            message: "The server uses PostgreSQL (DATABASE_URL): back it up with pg_dump and pg_restore.")
    }
    return file
}

/// Runs `body`, turning its failure into a message without a stack trace.
private func perform(_ body: () throws -> SQLiteBackup.Copied) throws -> SQLiteBackup.Copied {
    do {
        return try body()
    } catch let failure as SQLiteBackup.Failure {
        throw CleanExitError(message: failure.description)
    }
}

private func megabytes(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_048_576)
}
