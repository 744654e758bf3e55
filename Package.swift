// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "SmartFlashcards",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "FlashcardsCore", targets: ["FlashcardsCore"]),
        .library(name: "FlashcardsAPI", targets: ["FlashcardsAPI"]),
        .library(name: "FlashcardsClient", targets: ["FlashcardsClient"]),
        .library(name: "FlashcardsAppCore", targets: ["FlashcardsAppCore"]),
        .executable(name: "flashcards", targets: ["flashcards"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.115.0"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.12.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.8.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.10.0"),
        .package(url: "https://github.com/vapor/jwt.git", from: "5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),
        // Web Push: the aes128gcm encryption and VAPID signatures of reminders.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // /metrics in Prometheus' text format; Vapor already reports its request metrics through
        // swift-metrics.
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.4.0"),
        // Tests only: a certificate for the TLS mail server the tests start.
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.15.0"),
    ],
    targets: [
        // Pure domain: schedulers, study rules, text heuristics. No I/O, no clock.
        .target(name: "FlashcardsCore"),
        // Wire types shared by server, SDK and CLI. Never depends on Vapor.
        .target(name: "FlashcardsAPI", dependencies: ["FlashcardsCore"]),
        // The Swift SDK for iOS/macOS/Linux apps: URLSession on Apple platforms, AsyncHTTPClient on
        // Linux (whose libcurl-backed URLSession crashes under concurrent requests).
        .target(
            name: "FlashcardsClient",
            dependencies: [
                "FlashcardsAPI",
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
            ]
        ),
        // The iOS app's core: view models (Observation) over the SDK, no UIKit or SwiftUI, tested here
        // (FlashcardsAppCoreTests).
        .target(name: "FlashcardsAppCore", dependencies: ["FlashcardsClient"]),
        // Text extraction and card generators; talks to processes and HTTP, not Vapor.
        .target(
            name: "FlashcardsGeneration",
            dependencies: [
                "FlashcardsCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // zlib from the system (Vapor's HTTP compression already needs its headers).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // The Vapor application as a library.
        .target(
            name: "FlashcardsServer",
            dependencies: [
                "CZlib",
                "FlashcardsCore",
                "FlashcardsAPI",
                "FlashcardsGeneration",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "JWT", package: "jwt"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "FlashcardsCLI",
            dependencies: [
                "FlashcardsCore",
                "FlashcardsAPI",
                "FlashcardsClient",
                "FlashcardsGeneration",
                "FlashcardsServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "flashcards",
            dependencies: [
                "FlashcardsCLI", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The benchmark harness: seeder and `flashcards-bench server`. No product target depends on
        // it and it is no declared product; SwiftPM still builds the executable by name
        // (`swift build --product flashcards-bench`), next to `flashcards`, which it starts as the server.
        .target(
            name: "FlashcardsBenchmarks",
            dependencies: [
                "FlashcardsCore",
                "FlashcardsAPI",
                "FlashcardsServer",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "flashcards-bench",
            dependencies: [
                "FlashcardsBenchmarks", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Starts `flashcards serve` as its own process for the SDK's and the app core's tests, which
        // see the server only through HTTP (Foundation and the SDK only, no test framework).
        // And a fake OpenAI-compatible model (`MockLLMServer`).
        .target(
            name: "FlashcardsTestServer",
            dependencies: [
                "FlashcardsClient", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ], path: "Tests/FlashcardsTestServer"),
        .testTarget(name: "FlashcardsCoreTests", dependencies: ["FlashcardsCore"], exclude: ["Fixtures"]),
        // The SDK: its requests and errors, the wire types' coding, against the real server.
        .testTarget(
            name: "FlashcardsClientTests", dependencies: ["FlashcardsClient", "FlashcardsAPI", "FlashcardsTestServer"]),
        // The iOS app's view models against the real server.
        .testTarget(
            name: "FlashcardsAppCoreTests",
            dependencies: ["FlashcardsAppCore", "FlashcardsClient", "FlashcardsAPI", "FlashcardsTestServer"]),
        .testTarget(
            name: "FlashcardsGenerationTests",
            dependencies: [
                "FlashcardsGeneration", "FlashcardsTestServer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "FlashcardsServerTests",
            dependencies: [
                "FlashcardsServer",
                "FlashcardsClient",
                "FlashcardsAPI",
                "FlashcardsCLI",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "FlashcardsBenchmarksTests",
            dependencies: [
                "FlashcardsBenchmarks", "FlashcardsServer", "FlashcardsAPI",
                .product(name: "VaporTesting", package: "vapor"),
            ]
        ),
    ]
)
