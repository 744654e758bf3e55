import FlashcardsGeneration
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Log lines as JSON objects, one a line on standard output (`LOG_FORMAT=json`), for a log
/// collector: `time` (ISO 8601 with milliseconds, UTC), `level`, `logger`, `message`, the
/// `request_id` of the request the line belongs to, `source` and `file:line` for warnings and
/// worse, and any other metadata under `metadata`.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let write: @Sendable (String) -> Void

    /// A handler for `label` writing to standard output.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(label: label, metadataProvider: metadataProvider, write: JSONLogHandler.standardOutput)
    }

    /// A handler for `label` handing each finished line (without its newline) to `write`.
    public init(
        label: String, metadataProvider: Logger.MetadataProvider? = nil, write: @escaping @Sendable (String) -> Void
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        var members: [JSONValue.Member] = [
            .init("time", .string(Self.timestamp(Date()))),
            .init("level", .string(event.level.rawValue)),
            .init("logger", .string(label)),
            .init("message", .string(event.message.description)),
        ]
        if let id = merged.removeValue(forKey: "request-id") { members.append(.init("request_id", Self.json(id))) }
        if event.level >= .warning {
            members.append(.init("source", .string(event.source)))
            members.append(.init("file", .string("\(event.file):\(event.line)")))
        }
        if !merged.isEmpty {
            members.append(
                .init("metadata", .object(merged.sorted { $0.key < $1.key }.map { .init($0.key, Self.json($0.value)) }))
            )
        }
        write(JSONValue.object(members).text)
    }

    private static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let members): .object(members.sorted { $0.key < $1.key }.map { .init($0.key, json($0.value)) })
        }
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(secondsFromGMT: 0)!))
    }

    private static let lock = NIOLock()

    @Sendable private static func standardOutput(_ line: String) {
        lock.withLock {
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }
}
