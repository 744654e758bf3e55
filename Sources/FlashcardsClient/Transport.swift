import FlashcardsAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests and decodes responses; shared by the `/api/v1` client and the compatibility
/// client so both speak JSON, auth and errors the same way.
struct Transport: Sendable {
    let baseURL: URL
    let session: URLSession
    let token: TokenBox
    /// `true` sends `Authorization: Bearer <token>`, `false` the raw token as the original clients do.
    let bearer: Bool

    enum Body {
        case none
        case json(any Encodable & Sendable)
        /// multipart/form-data: one file part and text fields.
        case multipart(file: Data, fileField: String, fileName: String, fields: [String: String])
    }

    /// `body` as multipart/form-data with a random boundary.
    static func multipartBody(file: Data, fileField: String, fileName: String, fields: [String: String])
        -> (contentType: String, body: Data)
    {
        let boundary = "flashcards-\(UUID().uuidString)"
        var body = Data()
        func quoted(_ text: String) -> String {
            text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "")
                .replacingOccurrences(of: "\n", with: "")
        }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(name))\"\r\n\r\n".utf8))
            body.append(Data("\(value)\r\n".utf8))
        }
        body.append(
            Data(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(fileField))\"; "
                    + "filename=\"\(quoted(fileName))\"\r\nContent-Type: application/octet-stream\r\n\r\n").utf8))
        body.append(file)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return ("multipart/form-data; boundary=\(boundary)", body)
    }

    /// Sends a request and returns the raw body of a 2xx response.
    func send(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Body = .none) async throws -> Data {
        guard var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        else { throw FlashcardsError.transport("Invalid URL for \(path)") }
        if !query.isEmpty { components.queryItems = query }
        guard let url = components.url else { throw FlashcardsError.transport("Invalid URL for \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token = token.value {
            request.setValue(bearer ? "Bearer \(token)" : token, forHTTPHeaderField: "Authorization")
        }
        switch body {
        case .none: break
        case .json(let value):
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            do {
                request.httpBody = try FlashcardsJSON.makeEncoder().encode(value)
            } catch {
                throw FlashcardsError.decoding("Could not encode the request: \(error)")
            }
        case .multipart(let file, let fileField, let fileName, let fields):
            let (contentType, data) = Self.multipartBody(
                file: file, fileField: fileField, fileName: fileName, fields: fields)
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            request.httpBody = data
        }
        let (data, response) = try await perform(request)
        guard let http = response as? HTTPURLResponse else { throw FlashcardsError.transport("Not an HTTP response") }
        guard (200..<300).contains(http.statusCode) else {
            throw FlashcardsError.from(
                status: http.statusCode, body: data, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
        }
        return data
    }

    /// Sends a request and decodes a 2xx response as `T`.
    func send<T: Decodable>(
        _ type: T.Type, _ method: String, _ path: String, query: [URLQueryItem] = [], body: Body = .none
    ) async throws -> T {
        let data = try await send(method, path, query: query, body: body)
        do {
            return try FlashcardsJSON.makeDecoder().decode(T.self, from: data)
        } catch {
            throw FlashcardsError.decoding("\(T.self): \(error)")
        }
    }

    /// Calls `endpoint` with `parameters` filled into its path in order and returns the raw body
    /// of a 2xx response.
    func send(
        _ endpoint: Endpoint, _ parameters: String..., query: [URLQueryItem] = [], body: Body = .none
    ) async throws -> Data {
        try await send(endpoint.method.rawValue, endpoint.path(parameters), query: query, body: body)
    }

    /// Calls `endpoint` with `parameters` filled into its path in order and decodes a 2xx response
    /// as `T`.
    func send<T: Decodable>(
        _ type: T.Type, _ endpoint: Endpoint, _ parameters: String..., query: [URLQueryItem] = [],
        body: Body = .none
    ) async throws -> T {
        try await send(type, endpoint.method.rawValue, endpoint.path(parameters), query: query, body: body)
    }

    private func perform(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: FlashcardsError.transport(error.localizedDescription))
                } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: FlashcardsError.transport("No response"))
                }
            }
            task.resume()
        }
    }
}

/// The token, shared between the clients of one server and safe to read from any task.
final class TokenBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    init(_ value: String?) { stored = value }

    var value: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
