import FlashcardsGeneration
import Foundation
import Vapor

/// JSON-RPC as MCP uses it: the message read from a POST, and the answers written back.
enum MCPMessage {
    /// A JSON-RPC error: its code, message, optional data, and the HTTP status the transport
    /// answers it with (as the MCP SDKs map them).
    struct Failure: Error {
        let code: Int
        let message: String
        var data: JSONValue? = nil

        static let parseError = -32_700
        static let invalidRequest = -32_600
        static let methodNotFound = -32_601
        static let invalidParams = -32_602
        static let internalError = -32_603
        static let resourceNotFound = -32_002
        static let headerMismatch = -32_020
        static let unsupportedVersion = -32_022

        var status: HTTPResponseStatus {
            switch code {
            case Self.parseError, Self.invalidRequest, Self.invalidParams, Self.headerMismatch,
                Self.unsupportedVersion:
                .badRequest
            case Self.methodNotFound: .notFound
            default: .ok
            }
        }
    }

    /// A request read from a POST body.
    struct Request {
        let id: JSONValue
        let method: String
        let params: JSONValue?

        /// `params[key]`.
        func param(_ key: String) -> JSONValue? { params?[key] }
    }

    /// What a body holds: a request, or something answered with 202 (a notification, a response).
    enum Incoming {
        case request(Request)
        case accepted
    }

    /// Reads one message; batches are not part of the protocol any more.
    static func read(_ body: ByteBuffer?) throws -> Incoming {
        guard let body, body.readableBytes > 0,
            let value = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: body))
        else { throw Failure(code: Failure.parseError, message: "Parse error: the body is no JSON.") }
        guard case .object = value else {
            throw Failure(code: Failure.invalidRequest, message: "Invalid request: one JSON-RPC object per POST.")
        }
        guard value["jsonrpc"] == .string("2.0") else {
            throw Failure(code: Failure.invalidRequest, message: "Invalid request: jsonrpc must be \"2.0\".")
        }
        guard case .string(let method)? = value["method"] else {
            // A response to a server request (we send none) is taken and dropped.
            if value["id"] != nil, value["result"] != nil || value["error"] != nil { return .accepted }
            throw Failure(code: Failure.invalidRequest, message: "Invalid request: method is missing.")
        }
        guard let id = value["id"] else { return .accepted }
        switch id {
        case .string, .integer: break
        default:
            throw Failure(code: Failure.invalidRequest, message: "Invalid request: id must be a string or an integer.")
        }
        let params = value["params"]
        if let params, params != .null {
            guard case .object = params else {
                throw Failure(code: Failure.invalidParams, message: "Invalid params: params must be an object.")
            }
        }
        return .request(Request(id: id, method: method, params: params == .null ? nil : params))
    }

    /// The answer to `id` with `result`.
    static func result(_ result: JSONValue, id: JSONValue) -> Response {
        jsonResponse(["jsonrpc": "2.0", "id": id, "result": result])
    }

    /// The answer to `id` (null when the request could not be read) with `failure`.
    static func failure(_ failure: Failure, id: JSONValue?, status: HTTPResponseStatus? = nil) -> Response {
        var error: [JSONValue.Member] = [
            .init("code", .integer(failure.code)), .init("message", .string(failure.message)),
        ]
        if let data = failure.data { error.append(.init("data", data)) }
        return jsonResponse(
            ["jsonrpc": "2.0", "id": id ?? .null, "error": .object(error)], status: status ?? failure.status)
    }
}
