import FlashcardsGeneration
import Foundation
import Vapor

/// The MCP server of a learner's account (`docs/mcp.md`): answers one JSON-RPC request of either
/// protocol era. The handshake era (2024-11-05 … 2025-11-25) starts with `initialize`; the
/// current revision (2026-07-28) has no handshake: every request carries its protocol version in
/// `params._meta` and in headers that must agree with the body. The server keeps no session
/// either way: each POST is answered on its own, as JSON.
struct MCPServer {
    static let handshakeVersions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    static let modernVersions = ["2026-07-28"]
    static let protocolVersionKey = "io.modelcontextprotocol/protocolVersion"
    static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

    let http: Request
    let user: UserModel
    let token: AccessTokenModel
    /// Tool descriptions and messages in the learner's language.
    let german: Bool

    /// The answer to `message`.
    func respond(to message: MCPMessage.Request) async -> Response {
        do {
            let modern = try era(of: message)
            let result = try await dispatch(message, modern: modern)
            return MCPMessage.result(result, id: message.id)
        } catch let failure as MCPMessage.Failure {
            return MCPMessage.failure(failure, id: message.id)
        } catch {
            http.logger.report(error: error)
            return MCPMessage.failure(
                MCPMessage.Failure(code: MCPMessage.Failure.internalError, message: "Internal error."), id: message.id)
        }
    }

    /// Whether the request is of the current, handshake-free revision; checks its envelope.
    private func era(of message: MCPMessage.Request) throws -> Bool {
        let headers = http.headers
        for name in ["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"] where headers[name].count > 1 {
            throw MCPMessage.Failure(
                code: MCPMessage.Failure.headerMismatch, message: "The header \(name) is repeated.")
        }
        let header = headers.first(name: "MCP-Protocol-Version")
        let meta = message.param("_meta")
        let metaVersion = meta?[Self.protocolVersionKey]
        if let header, Self.handshakeVersions.contains(header) { return false }
        if header == nil, metaVersion == nil { return false }
        if let header, !Self.modernVersions.contains(header) {
            throw MCPMessage.Failure(
                code: MCPMessage.Failure.unsupportedVersion, message: "Unsupported protocol version",
                data: Self.unsupported(requested: header))
        }
        guard case .object = meta, case .string(let version)? = metaVersion, meta?[Self.capabilitiesKey] != nil else {
            throw MCPMessage.Failure(
                code: MCPMessage.Failure.invalidParams,
                message: "params._meta must carry '\(Self.protocolVersionKey)' and '\(Self.capabilitiesKey)'.")
        }
        guard header == version else {
            throw MCPMessage.Failure(
                code: MCPMessage.Failure.headerMismatch,
                message: "The MCP-Protocol-Version header does not match the request's protocol version.")
        }
        guard Self.modernVersions.contains(version) else {
            throw MCPMessage.Failure(
                code: MCPMessage.Failure.unsupportedVersion, message: "Unsupported protocol version",
                data: Self.unsupported(requested: version))
        }
        if let method = headers.first(name: "Mcp-Method"), method != message.method {
            throw MCPMessage.Failure(
                code: MCPMessage.Failure.headerMismatch, message: "The Mcp-Method header does not match the method.")
        }
        if let name = headers.first(name: "Mcp-Name"), let named = message.param("name") ?? message.param("uri"),
            named != .string(Self.decodedHeader(name))
        {
            throw MCPMessage.Failure(
                code: MCPMessage.Failure.headerMismatch, message: "The Mcp-Name header does not match the request.")
        }
        return true
    }

    static func unsupported(requested: String) -> JSONValue {
        [
            "supported": .array((modernVersions + handshakeVersions).map { .string($0) }),
            "requested": .string(requested),
        ]
    }

    /// A header value as sent: plain, or `=?base64?…?=` for text that is not printable ASCII.
    static func decodedHeader(_ value: String) -> String {
        guard value.hasPrefix("=?base64?"), value.hasSuffix("?="), value.count >= 11 else { return value }
        let encoded = String(value.dropFirst(9).dropLast(2))
        return Data(base64Encoded: encoded).flatMap { String(data: $0, encoding: .utf8) } ?? value
    }

    private func dispatch(_ message: MCPMessage.Request, modern: Bool) async throws -> JSONValue {
        var result: JSONValue
        var cacheable = true
        switch (message.method, modern) {
        case ("server/discover", true): result = discover()
        case ("initialize", false): result = initialize(message)
        case ("ping", false): result = [:]
        case ("tools/list", _):
            result = ["tools": .array(MCPTool.all.map { $0.listed(german: german) })]
        case ("tools/call", _):
            result = await MCPToolRunner(server: self).call(message)
            cacheable = false
        case ("resources/list", _): result = try await MCPResources(server: self).list()
        case ("resources/templates/list", _): result = MCPResources.templates(german: german)
        case ("resources/read", _): result = try await MCPResources(server: self).read(message)
        default:
            throw MCPMessage.Failure(
                code: MCPMessage.Failure.methodNotFound, message: "Method not found", data: .string(message.method))
        }
        guard case .object(var members) = result else { return result }
        // Every result of the current revision says it is complete; lists and reads may not be
        // cached (they are the learner's own, and change).
        members.append(.init("resultType", "complete"))
        if cacheable {
            members.append(.init("ttlMs", 0))
            members.append(.init("cacheScope", "private"))
        }
        return .object(members)
    }

    private var capabilities: JSONValue {
        [
            "tools": ["listChanged": false],
            "resources": ["listChanged": false, "subscribe": false],
        ]
    }

    private var serverInfo: JSONValue {
        ["name": "smart-flashcards", "title": "Smart Flashcards", "version": "1.0.0"]
    }

    private var instructions: String {
        german
            ? "Smart Flashcards: die Lernkarten dieses Lernenden. Du kannst Stapel und Karten lesen und (mit einem Token mit write) anlegen, Kartenentwürfe aus Text machen lassen, abfragen und bewerten. "
                + MCPTool.dataNote.de
            : "Smart Flashcards: this learner's flashcards. You can read stacks and cards and (with a write token) create them, have drafts made from text, quiz the learner and rate answers. "
                + MCPTool.dataNote.en
    }

    private func discover() -> JSONValue {
        [
            "supportedVersions": .array(Self.modernVersions.map { .string($0) }),
            "capabilities": capabilities,
            "instructions": .string(instructions),
            "_meta": [Self.serverInfoKey: serverInfo],
        ]
    }

    private func initialize(_ message: MCPMessage.Request) -> JSONValue {
        var version = Self.handshakeVersions.last!
        if case .string(let requested)? = message.param("protocolVersion"), Self.handshakeVersions.contains(requested) {
            version = requested
        }
        return [
            "protocolVersion": .string(version), "capabilities": capabilities, "serverInfo": serverInfo,
            "instructions": .string(instructions),
        ]
    }
}
