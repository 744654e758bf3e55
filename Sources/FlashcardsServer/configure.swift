import FlashcardsAPI
import FlashcardsGeneration
import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import NIOCore
import NIOPosix
import SQLKit
import Vapor

/// Sets up a Vapor application: database and migrations, token keys, middleware and routes.
/// The CLI's `serve`, the tests and the benchmark all come through here.
public func configure(
    _ app: Application, configuration: AppConfiguration, environment: ServerEnvironment = .live
) async throws {
    app.appConfiguration = configuration
    app.serverEnvironment = environment
    app.logger.logLevel = Logger.Level(rawValue: configuration.logLevel) ?? .info
    if configuration.metricsToken != nil { ServerMetrics.bootstrap() }
    app.http.server.configuration.hostname = configuration.host
    app.http.server.configuration.port = configuration.port
    app.routes.defaultMaxBodySize = ByteCount(value: configuration.maxBodyBytes)
    app.passwords.use(.bcrypt(cost: configuration.bcryptCost))

    try await configureDatabase(app, configuration: configuration)
    try await app.autoMigrate()
    let secret = try await TokenService.resolveSecret(configured: configuration.jwtSecret, database: app.db)
    app.tokens = await TokenService(secret: secret, lifetime: TimeInterval(configuration.tokenLifetimeSeconds))
    app.passwordResetSealKey = PasswordResetToken.sealKey(secret: secret)
    app.tokenRateLimiter = TokenRateLimiter(perMinute: configuration.tokenRequestsPerMinute)
    app.oidcClients = Dictionary(
        configuration.oidcProviders.map {
            ($0.id, OIDCProviderClient(configuration: $0, http: app.http.client.shared))
        },
        uniquingKeysWith: { first, _ in first })
    app.vapidKey = try await VAPIDKeys.resolve(configured: configuration.vapidPrivateKey, database: app.db)
    if configuration.starterCatalogue {
        try await StarterCatalogue.seedIfNeeded(app.studyStore(on: app.db), logger: app.logger)
    }

    // Order matters: CORS answers preflights and decorates errors; the error renderer sees every
    // error before Vapor's default one would.
    app.middleware = Middlewares()
    app.middleware.use(RequestLogMiddleware())
    app.middleware.use(
        CORSMiddleware(
            configuration: .init(
                allowedOrigin: .all,
                allowedMethods: [.GET, .POST, .PUT, .PATCH, .DELETE, .OPTIONS],
                allowedHeaders: [
                    .authorization, .contentType, .accept, .origin, .xRequestedWith, "MCP-Protocol-Version",
                ],
                exposedHeaders: [.retryAfter, .wwwAuthenticate, .xRequestId]
            )))
    app.middleware.use(SecurityHeadersMiddleware())
    app.middleware.use(ErrorRenderingMiddleware())
    app.middleware.use(RequestLimitsMiddleware())
    app.middleware.use(StaticFilesMiddleware(publicDirectory: absolutePath(configuration.publicDirectory)))

    try routes(app)

    app.jobs.register(GenerationJobHandler(llm: configuration.llm))
    app.jobs.register(OptimizeJobHandler())
    app.jobs.register(ImportJobHandler())
    app.jobs.register(
        HintJobHandler(
            maker: configuration.llm.map { ModelHintMaker(client: ChatCompletionClient(configuration: $0)) }
                ?? OfflineHintMaker()))
    if let mail = configuration.mail, let publicURL = configuration.publicURL {
        app.jobs.register(
            PasswordResetMailHandler(mail: mail, publicURL: publicURL, settings: configuration.passwordReset))
    }
    app.lifecycle.use(JobWorkerLifecycle())
    if configuration.jobWorkers > 0 { app.jobWorker.start(slots: configuration.jobWorkers) }
    app.lifecycle.use(ReminderLoopLifecycle())
    if configuration.reminderIntervalSeconds > 0 {
        app.reminderLoop.start(
            sender: ReminderSender(application: app, key: app.vapidKey),
            interval: TimeInterval(configuration.reminderIntervalSeconds))
    }
}

/// Registers every route.
func routes(_ app: Application) throws {
    try app.register(collection: CompatRoutes())
    let v1 = app.grouped("api", "v1")
    v1.on(Endpoint.V1.health) { _ in try jsonResponse(["status": "ok"]) }
    v1.on(Endpoint.V1.openAPIDocument) { req async throws -> Response in
        // The document lives beside the web app so it is one file, served as it is committed.
        let path = absolutePath(req.application.appConfiguration.publicDirectory) + "/openapi.json"
        guard FileManager.default.fileExists(atPath: path) else { throw Abort(.notFound) }
        let response = try await req.fileio.asyncStreamFile(at: path)
        response.headers.contentType = .json
        return response
    }
    try v1.register(collection: AccountRoutes())
    try v1.register(collection: OIDCRoutes())
    try v1.register(collection: AccessTokenRoutes())
    try v1.register(collection: PasswordResetRoutes())
    try v1.register(collection: StackRoutes())
    try v1.register(collection: ReviewRoutes())
    try v1.register(collection: StatsRoutes())
    try v1.register(collection: WorkloadRoutes())
    try v1.register(collection: SchedulerRoutes())
    try v1.register(collection: JobRoutes())
    try v1.register(collection: GenerationRoutes())
    try v1.register(collection: PartnerRoutes())
    try v1.register(collection: MotivationRoutes())
    try v1.register(collection: ImportRoutes())
    try v1.register(collection: ShareRoutes())
    try v1.register(collection: ImageRoutes())
    try v1.register(collection: CatalogueRoutes())
    try app.register(collection: CreateFromFileRoute())
    try app.register(collection: MCPRoutes())
    try app.register(collection: OAuthRoutes())
    try app.register(collection: OperationsRoutes())
    try app.register(collection: WebRoutes())
}

private func configureDatabase(_ app: Application, configuration: AppConfiguration) async throws {
    switch configuration.database {
    case .sqliteMemory:
        app.databases.use(.sqlite(.memory), as: .sqlite)
    case .sqliteFile:
        // SQLite's blocking calls run on the application's thread pool. It gets its own, larger than
        // the event loop count (one connection each), so a statement that waits for the write lock
        // can never take the last thread the lock's holder needs; the process-wide default pool is
        // shared by every application in a test process.
        app.threadPool = NIOThreadPool(numberOfThreads: System.coreCount + 4)
        let directory = absolutePath(configuration.dataDirectory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = configuration.sqliteFile!
        app.databases.use(.sqlite(.file(file)), as: .sqlite)
        // Write-ahead logging, and each pooled connection's `synchronous` and busy handler
        // (`DatabaseSetup.prepareSQLiteFile`).
        let mode = configuration.sqliteSynchronous == "full" ? "FULL" : "NORMAL"
        try await DatabaseSetup.prepareSQLiteFile(app, synchronous: mode)
        // The learning path's statements run on connections of their own, without the driver's
        // thread hop (`InlineSQLite`).
        app.inlineSQLite = try InlineSQLite(path: file, synchronous: mode, threadPool: app.threadPool)
        app.walCheckpointer = WALCheckpointer(
            path: file, synchronous: mode, interval: .milliseconds(250),
            threadPool: app.threadPool, eventLoop: app.eventLoopGroup.any(), logger: app.logger)
        app.lifecycle.use(WALCheckpointerLifecycle())
    case .postgres(let url, let schema):
        var postgres = try SQLPostgresConfiguration(url: url)
        if let schema { postgres.searchPath = [schema] }
        app.databases.use(
            .postgres(
                configuration: postgres, maxConnectionsPerEventLoop: configuration.postgresConnectionsPerEventLoop,
                connectionPoolTimeout: .seconds(10)),
            as: .psql)
        if let schema {
            // A named schema keeps several deployments (or test runs) apart in one database.
            try await DatabaseSetup.createSchema(schema, on: app.db)
        }
    }
    app.migrations.add(Migrations.all)
}

/// Resolves a configured path against the working directory.
func absolutePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let base = FileManager.default.currentDirectoryPath
    return URL(fileURLWithPath: base).appendingPathComponent(path).standardizedFileURL.path
}
