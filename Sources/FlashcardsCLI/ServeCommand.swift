import ArgumentParser
import FlashcardsServer
import Foundation
import Vapor

/// `flashcards serve`: runs the HTTP server until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the server (configuration from the environment and ./.env; see README).")

    @ArgumentParser.Option(help: "Interface to listen on (overrides HOST).")
    var host: String?

    @ArgumentParser.Option(help: "Port to listen on (overrides PORT).")
    var port: Int?

    func run() async throws {
        var configuration = try loadConfiguration()
        if let host { configuration.host = host }
        if let port { configuration.port = port }
        let app = try await makeApplication(configuration)
        do {
            app.environment.arguments = [
                "flashcards", "serve", "--hostname", configuration.host, "--port", "\(configuration.port)",
            ]
            try await app.execute()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}

/// `flashcards migrate`: applies pending database migrations and exits.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply database migrations and exit.")

    func run() async throws {
        let app = try await makeApplication(try loadConfiguration())
        app.logger.info("Database is up to date.")
        try await app.asyncShutdown()
    }
}

/// Reads the configuration, turning a bad value into a clear message instead of a stack trace.
func loadConfiguration() throws -> AppConfiguration {
    do {
        return try AppConfiguration.load()
    } catch let error as ConfigurationError {
        throw ValidationError("Configuration: \(error.description)")
    }
}

/// Boots an application with logging set up once per process.
func makeApplication(_ configuration: AppConfiguration) async throws -> Application {
    LoggingBootstrap.once(level: configuration.logLevel, format: configuration.logFormat)
    let app = try await Application.make(Environment(name: "production", arguments: ["flashcards"]))
    do {
        try await configure(app, configuration: configuration)
    } catch {
        try? await app.asyncShutdown()
        throw error
    }
    return app
}

/// Bootstraps swift-log exactly once, whatever command runs.
enum LoggingBootstrap {
    nonisolated(unsafe) private static var done = false
    private static let lock = NSLock()

    static func once(level: String, format: String = "text") {
        lock.lock()
        defer { lock.unlock() }
        guard !done else { return }
        done = true
        if format == "json" {
            let threshold = Logger.Level(rawValue: level) ?? .info
            LoggingSystem.bootstrap { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = threshold
                return handler
            }
            return
        }
        var environment = Environment(name: "production", arguments: ["flashcards"])
        environment.arguments.append(contentsOf: ["--log", level])
        try? LoggingSystem.bootstrap(from: &environment)
    }
}
