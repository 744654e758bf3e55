import FlashcardsGeneration
import Foundation
import Vapor

/// `tools/call`: checks the tool, its arguments and the token's scope, runs it, and notes it in the
/// token's activity. What goes wrong in a tool (a refused argument, a foreign id, a rule of the
/// API) is a result with `isError`, so the assistant reads it and can put it right; nothing is
/// written by a call that fails.
struct MCPToolRunner {
    let server: MCPServer

    func call(_ message: MCPMessage.Request) async -> JSONValue {
        guard case .string(let name)? = message.param("name") else {
            return Self.failed("tools/call needs the tool's name.")
        }
        guard let tool = MCPTool.named(name) else {
            return Self.failed("Unknown tool '\(name)'. tools/list names the tools there are.")
        }
        do {
            if tool.writes, try !server.token.scopes.contains(.write) {
                return Self.failed(
                    server.german
                        ? "Dieses Zugangstoken darf nur lesen; \(name) ändert Daten. Der Lernende kann in den Einstellungen ein Token mit write anlegen."
                        : "This access token may only read; \(name) changes data. The learner can make a token with write in the settings.",
                    code: "token_read_only")
            }
            let arguments = try MCPArguments(
                message.param("arguments"), allowed: Set(tool.properties.map(\.0)))
            let output = try await MCPToolbox(request: server.http, user: server.user, arguments: arguments).run(name)
            try await AccessTokenService(context: ServiceContext(server.http)).record(
                tokenId: try server.token.requireID(), action: name, via: "mcp", counts: output.counts)
            return [
                "content": [["type": "text", "text": .string(output.result.text)]],
                "structuredContent": output.result, "isError": false,
            ]
        } catch let failure as MCPToolFailure {
            return Self.failed(failure.message)
        } catch let error as AppError {
            let body = error.body
            return Self.failed(body.message, code: body.code)
        } catch {
            server.http.logger.report(error: error)
            return Self.failed("The tool failed on the server; nothing was changed.", code: "internal_error")
        }
    }

    /// A tool result that reports a failure to the assistant.
    static func failed(_ message: String, code: String? = nil) -> JSONValue {
        var error: [JSONValue.Member] = [.init("error", .string(message))]
        if let code { error.append(.init("code", .string(code))) }
        return [
            "content": [["type": "text", "text": .string(message)]],
            "structuredContent": .object(error), "isError": true,
        ]
    }
}
