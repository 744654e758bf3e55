import FlashcardsAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
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
        let response = try await perform(request)
        guard (200..<300).contains(response.status) else {
            throw FlashcardsError.from(status: response.status, body: response.body, retryAfter: response.retryAfter)
        }
        return response.body
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

    /// What a call needs of a response.
    struct Response {
        var status: Int
        var body: Data
        var retryAfter: String?
    }

    #if canImport(FoundationNetworking)
        /// The largest response body the SDK reads (a full backup export stays well below it).
        static let maxResponseBytes = 512 * 1024 * 1024

        /// The SDK's HTTP client on Linux, for the life of the process. A server that cannot be
        /// reached fails the call at once (as `URLSession` does), so an app notices it is offline
        /// instead of retrying connections until the request's deadline. A request that waits for
        /// a free connection fails after the connect timeout as well, so the pool is wide enough
        /// that a burst of calls to a busy server (a session's ratings while cards are saved) does
        /// not wait behind the default eight connections.
        static let httpClient: HTTPClient = {
            var configuration = HTTPClient.Configuration(
                timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .seconds(120)))
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
            return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        }()

        /// On Linux the request goes through AsyncHTTPClient: FoundationNetworking's libcurl-backed
        /// `URLSession` has known use-after-free crashes under concurrent requests
        /// (swift-corelibs-foundation #4791 and its relatives), and servers and tests here send many.
        private func perform(_ request: URLRequest) async throws -> Response {
            guard let url = request.url else { throw FlashcardsError.transport("Invalid URL") }
            var outgoing = HTTPClientRequest(url: url.absoluteString)
            outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
            for (name, value) in request.allHTTPHeaderFields ?? [:] { outgoing.headers.add(name: name, value: value) }
            if let body = request.httpBody { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
            do {
                let response = try await Self.httpClient.execute(outgoing, timeout: .seconds(300))
                let body = try await response.body.collect(upTo: Self.maxResponseBytes)
                return Response(
                    status: Int(response.status.code), body: Data(body.readableBytesView),
                    retryAfter: response.headers.first(name: "Retry-After"))
            } catch let error as HTTPClientError {
                throw FlashcardsError.transport(String(describing: error))
            } catch let error as NIOTooManyBytesError {
                throw FlashcardsError.transport("The response is larger than \(Self.maxResponseBytes) bytes: \(error)")
            } catch {
                throw FlashcardsError.transport(error.localizedDescription)
            }
        }
    #else
        private func perform(_ request: URLRequest) async throws -> Response {
            let data: Data
            let response: URLResponse
            do {
                (data, response) = try await session.data(for: request)
            } catch {
                throw FlashcardsError.transport(error.localizedDescription)
            }
            guard let http = response as? HTTPURLResponse else {
                throw FlashcardsError.transport("Not an HTTP response")
            }
            return Response(
                status: http.statusCode, body: data, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
        }
    #endif
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
