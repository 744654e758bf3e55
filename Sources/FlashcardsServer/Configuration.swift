import FlashcardsGeneration
import Foundation

/// The server's configuration: one typed value, loaded once at boot and validated with clear
/// messages. Precedence: built-in defaults < `.env` file in the working directory < environment.
public struct AppConfiguration: Sendable {
    /// Interface to listen on (`HOST`); `0.0.0.0` makes the server reachable from phones on the LAN.
    public var host: String = "127.0.0.1"
    /// Port (`PORT`); the original API's 3001.
    public var port: Int = 3001
    /// Folder for the SQLite database and generated secrets (`FLASHCARDS_DATA_DIR`).
    public var dataDirectory: String = "./data"
    /// Which database to use: SQLite in the data folder unless `DATABASE_URL` names PostgreSQL.
    public var database: DatabaseChoice = .sqliteFile
    /// HMAC secret for tokens (`FLASHCARDS_JWT_SECRET`, at least 32 bytes); generated and stored
    /// in the database when absent.
    public var jwtSecret: String?
    /// Time zone of new users that do not name one (`FLASHCARDS_DEFAULT_TIME_ZONE`).
    public var defaultTimeZone: String = "Europe/Berlin"
    /// Folder of the web app (`FLASHCARDS_PUBLIC_DIR`).
    public var publicDirectory: String = "./Public"
    /// KaTeX, which typesets the formulas of rich cards in the web app: Debian's `libjs-katex`
    /// (served under `/assets/vendor/katex/`, never from a CDN; without it formulas show as LaTeX).
    public var katexDirectory: String = "/usr/share/javascript/katex"
    /// bcrypt cost (`FLASHCARDS_BCRYPT_COST`, 4…31).
    public var bcryptCost: Int = 12
    /// Failed logins per account or per IP address within the window before 429
    /// (`FLASHCARDS_LOGIN_MAX_FAILURES`).
    public var loginMaxFailures: Int = 10
    /// Failed logins from one client address (any accounts) within the window before 429: high
    /// enough that one client behind a shared address rarely locks out the others
    /// (`FLASHCARDS_LOGIN_MAX_FAILURES_PER_ADDRESS`).
    public var loginMaxFailuresPerAddress: Int = 50
    /// New accounts (sign-ups) one client address may make per hour (`FLASHCARDS_SIGNUPS_PER_HOUR`).
    public var signupsPerHour: Int = 60
    /// Reverse proxies whose `X-Forwarded-For` is believed (`FLASHCARDS_TRUSTED_PROXIES`: addresses
    /// or CIDR blocks, comma-separated); none by default.
    public var trustedProxies: [AddressRange] = []
    /// The window of the login limit in seconds (`FLASHCARDS_LOGIN_WINDOW_SECONDS`).
    public var loginWindowSeconds: Int = 900
    /// Requests one personal access token may make per minute (`FLASHCARDS_TOKEN_REQUESTS_PER_MINUTE`),
    /// over the API and MCP together; a burst of a quarter of it is allowed.
    public var tokenRequestsPerMinute: Int = 240
    /// Token lifetime in seconds (`FLASHCARDS_TOKEN_TTL_SECONDS`); 7 days as the original.
    public var tokenLifetimeSeconds: Int = 7 * 86_400
    /// Largest JSON request body in bytes (`FLASHCARDS_MAX_BODY_BYTES`).
    public var maxBodyBytes: Int = 1_048_576
    /// The OpenAI-compatible language model for card generation and hints (`FLASHCARDS_LLM_*`);
    /// nil runs the offline generator.
    public var llm: LLMConfiguration?
    /// Background job workers in this instance (`FLASHCARDS_JOB_WORKERS`, 0 runs none).
    public var jobWorkers: Int = 2
    /// PostgreSQL connections each event loop may open (the pool grows to it under load). Tests,
    /// which run hundreds of servers at once on one PostgreSQL, use fewer.
    public var postgresConnectionsPerEventLoop: Int = 4
    /// Publish the starter decks in the catalogue on the database's first start
    /// (`FLASHCARDS_STARTER_CATALOGUE`, `1` or `0`; default on).
    public var starterCatalogue: Bool = true
    /// Log level (`LOG_LEVEL`).
    public var logLevel: String = "info"
    /// How log lines are written (`LOG_FORMAT`): `text` (default) or `json`, one JSON object a line
    /// with the request id of the request it belongs to.
    public var logFormat: String = "text"
    /// The bearer token Prometheus scrapes `/metrics` with (`FLASHCARDS_METRICS_TOKEN`, at least 16
    /// characters); nil: no `/metrics` at all (docs/operations.md, "Metrics").
    public var metricsToken: String?
    /// The OpenID Connect providers learners can sign in with (`FLASHCARDS_OIDC_*`, docs/oidc.md).
    public var oidcProviders: [OIDCProviderConfiguration] = []
    /// SQLite's `synchronous` setting for the database file (`FLASHCARDS_SQLITE_SYNCHRONOUS`):
    /// `normal` (default; in WAL mode a commit survives a crash of the server, a power cut may undo
    /// the last commits but never corrupts the file) or `full` (every commit waits for the disk).
    public var sqliteSynchronous: String = "normal"
    /// The address people reach the web app at (`FLASHCARDS_PUBLIC_URL`, e.g.
    /// `https://cards.example.org`); mailed links point there. Never taken from a request's `Host`.
    public var publicURL: URL?
    /// The SMTP server mail goes through (`FLASHCARDS_SMTP_*`, docs/mail.md); nil: no mail, and
    /// password reset says it is unavailable.
    public var mail: MailConfiguration?
    /// Lifetime and request limits of password reset links (`FLASHCARDS_PASSWORD_RESET_*`).
    public var passwordReset = PasswordResetSettings()
    /// Seconds between two looks for reminders that are due (`FLASHCARDS_REMINDER_INTERVAL_SECONDS`,
    /// 0 sends none).
    public var reminderIntervalSeconds: Int = 60
    /// The contact in the VAPID token push services see (`FLASHCARDS_VAPID_SUBJECT`, a `mailto:` or
    /// `https:` address).
    public var vapidSubject: String = "mailto:flashcards@localhost"
    /// The VAPID private key, base64url (`FLASHCARDS_VAPID_PRIVATE_KEY`); nil: one is made on first
    /// start and kept in the database, like the token secret.
    public var vapidPrivateKey: String?
    /// Whether push endpoints may be plain `http` (`FLASHCARDS_PUSH_ALLOW_HTTP=1`; for a local test
    /// receiver only: real push services are always https).
    public var pushAllowHTTP: Bool = false

    /// The stores the server can use.
    public enum DatabaseChoice: Sendable, Equatable {
        /// `<dataDirectory>/flashcards.sqlite`.
        case sqliteFile
        /// An SQLite database in memory (tests).
        case sqliteMemory
        /// PostgreSQL at a `postgres://` URL, optionally inside a schema (tests isolate by schema).
        case postgres(url: String, schema: String?)
    }

    /// The defaults.
    public init() {}

    /// The SQLite database file (`<dataDirectory>/flashcards.sqlite`, absolute); nil for the other
    /// stores.
    public var sqliteFile: String? {
        database == .sqliteFile ? absolutePath(dataDirectory) + "/flashcards.sqlite" : nil
    }

    /// Loads the configuration from `environment` (and a `.env` file in `directory` if present).
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        directory: String = FileManager.default.currentDirectoryPath
    ) throws -> AppConfiguration {
        var values = DotEnv.read(path: directory + "/.env")
        values.merge(environment) { _, env in env }
        return try AppConfiguration(values: values)
    }

    /// Builds a configuration from key-value pairs, validating every value.
    public init(values: [String: String]) throws {
        func string(_ key: String) -> String? {
            guard let value = values[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        func int(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = string(key) else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw ConfigurationError(
                    "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            }
            return value
        }
        if let host = string("HOST") { self.host = host }
        if let port = try int("PORT", 0...65_535) { self.port = port }
        if let dir = string("FLASHCARDS_DATA_DIR") { self.dataDirectory = dir }
        if let url = string("DATABASE_URL") {
            if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
                self.database = .postgres(url: url, schema: string("DATABASE_SCHEMA"))
            } else if url == "sqlite::memory:" {
                self.database = .sqliteMemory
            } else {
                throw ConfigurationError(
                    "DATABASE_URL must start with postgres:// (or be unset for the embedded SQLite database)")
            }
        }
        if let secret = string("FLASHCARDS_JWT_SECRET") {
            guard secret.utf8.count >= 32 else {
                throw ConfigurationError("FLASHCARDS_JWT_SECRET must be at least 32 bytes long")
            }
            self.jwtSecret = secret
        }
        if let zone = string("FLASHCARDS_DEFAULT_TIME_ZONE") {
            guard TimeZone(identifier: zone) != nil else {
                throw ConfigurationError("FLASHCARDS_DEFAULT_TIME_ZONE '\(zone)' is not an IANA time zone")
            }
            self.defaultTimeZone = zone
        }
        if let dir = string("FLASHCARDS_PUBLIC_DIR") { self.publicDirectory = dir }
        if let dir = string("FLASHCARDS_KATEX_DIR") { self.katexDirectory = dir }
        if let cost = try int("FLASHCARDS_BCRYPT_COST", 4...31) { self.bcryptCost = cost }
        if let max = try int("FLASHCARDS_LOGIN_MAX_FAILURES", 1...10_000) { self.loginMaxFailures = max }
        if let window = try int("FLASHCARDS_LOGIN_WINDOW_SECONDS", 1...86_400) { self.loginWindowSeconds = window }
        if let max = try int("FLASHCARDS_LOGIN_MAX_FAILURES_PER_ADDRESS", 1...100_000) {
            self.loginMaxFailuresPerAddress = max
        }
        if let count = try int("FLASHCARDS_SIGNUPS_PER_HOUR", 1...100_000) { self.signupsPerHour = count }
        if let text = string("FLASHCARDS_TRUSTED_PROXIES") {
            self.trustedProxies = try text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.map { entry in
                    guard let range = AddressRange(entry) else {
                        throw ConfigurationError(
                            "FLASHCARDS_TRUSTED_PROXIES must list IP addresses or CIDR blocks, got '\(entry)'")
                    }
                    return range
                }
        }
        if let ttl = try int("FLASHCARDS_TOKEN_TTL_SECONDS", 60...31_536_000) { self.tokenLifetimeSeconds = ttl }
        if let count = try int("FLASHCARDS_TOKEN_REQUESTS_PER_MINUTE", 1...100_000) {
            self.tokenRequestsPerMinute = count
        }
        if let bytes = try int("FLASHCARDS_MAX_BODY_BYTES", 1_024...104_857_600) { self.maxBodyBytes = bytes }
        self.llm = LLMConfiguration(environment: values)
        if let workers = try int("FLASHCARDS_JOB_WORKERS", 0...16) { self.jobWorkers = workers }
        if let seed = try int("FLASHCARDS_STARTER_CATALOGUE", 0...1) { self.starterCatalogue = seed == 1 }
        if let mode = string("FLASHCARDS_SQLITE_SYNCHRONOUS") {
            guard ["normal", "full"].contains(mode) else {
                throw ConfigurationError("FLASHCARDS_SQLITE_SYNCHRONOUS must be normal or full")
            }
            self.sqliteSynchronous = mode
        }
        if let text = string("FLASHCARDS_PUBLIC_URL") {
            guard let url = URL(string: text.hasSuffix("/") ? String(text.dropLast()) : text),
                url.scheme == "https" || url.scheme == "http", url.host?.isEmpty == false, url.query == nil,
                url.fragment == nil
            else {
                throw ConfigurationError(
                    "FLASHCARDS_PUBLIC_URL must be an http(s) address like https://cards.example.org")
            }
            self.publicURL = url
        }
        self.mail = try MailConfiguration.load(from: values, publicURL: publicURL)
        self.oidcProviders = try OIDCProviderConfiguration.load(from: values, publicURL: publicURL)
        self.passwordReset = try PasswordResetSettings(values: values, int: int)
        if let seconds = try int("FLASHCARDS_REMINDER_INTERVAL_SECONDS", 0...86_400) {
            self.reminderIntervalSeconds = seconds
        }
        if let subject = string("FLASHCARDS_VAPID_SUBJECT") {
            guard subject.hasPrefix("mailto:") || subject.hasPrefix("https://") else {
                throw ConfigurationError("FLASHCARDS_VAPID_SUBJECT must be a mailto: or https:// address")
            }
            self.vapidSubject = subject
        }
        if let key = string("FLASHCARDS_VAPID_PRIVATE_KEY") {
            guard (try? VAPIDKey(privateKeyBase64URL: key)) != nil else {
                throw ConfigurationError("FLASHCARDS_VAPID_PRIVATE_KEY must be a P-256 private key in base64url")
            }
            self.vapidPrivateKey = key
        }
        self.pushAllowHTTP = string("FLASHCARDS_PUSH_ALLOW_HTTP") == "1"
        if let level = string("LOG_LEVEL") {
            let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
            guard levels.contains(level) else {
                throw ConfigurationError("LOG_LEVEL must be one of \(levels.joined(separator: ", "))")
            }
            self.logLevel = level
        }
        if let format = string("LOG_FORMAT") {
            guard ["text", "json"].contains(format) else { throw ConfigurationError("LOG_FORMAT must be text or json") }
            self.logFormat = format
        }
        if let token = string("FLASHCARDS_METRICS_TOKEN") {
            guard token.count >= 16, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw ConfigurationError(
                    "FLASHCARDS_METRICS_TOKEN must be at least 16 characters without spaces (e.g. openssl rand -hex 24)"
                )
            }
            self.metricsToken = token
        }
    }
}

/// A configuration value that cannot be used; the message names the key.
public struct ConfigurationError: Error, CustomStringConvertible {
    /// What is wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Reads `KEY=value` lines of a `.env` file; `#` starts a comment; quotes around values are removed.
enum DotEnv {
    static func read(path: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var values: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == value.last, first == "\"" || first == "'" {
                value = String(value.dropFirst().dropLast())
            }
            values[key] = value
        }
        return values
    }
}
