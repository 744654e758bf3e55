#if canImport(Glibc)
    import Foundation
    import Glibc
    import Testing
    import Vapor
    import VaporTesting

    @testable import FlashcardsServer

    /// Oversized uploads to the streamed routes (generations, route 13) over one real keep-alive
    /// connection, as browsers and `requests` sessions send them.
    @Suite("Oversized uploads and the connection")
    struct UploadConnectionTests {
        @Test("an upload over 10 MB is read to its end, answered 413, and the connection serves the next request")
        func oversizedUploadKeepsConnectionUsable() async throws {
            try await withApp(.sqlite, adjust: workers(0)) { app in
                let token = try await app.compatSignup()
                let stackId = try await createStack(app, token: token)
                try await withRunningServer(app) { _, url in
                    let port = try #require(url.port)
                    // 30 MB: far more than the server buffers when it stops reading early.
                    let boundary = "----flashcards-upload"
                    var body = Data(
                        "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\n"
                            .utf8)
                    body.append(Data(repeating: UInt8(ascii: "a"), count: 30 * 1_024 * 1_024))
                    body.append(Data("\r\n--\(boundary)--\r\n".utf8))
                    let head =
                        "POST /api/v1/stacks/\(stackId)/generations HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Authorization: Bearer \(token)\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\n"
                        + "Content-Length: \(body.count)\r\n\r\n"
                    let request = Data(head.utf8) + body
                    let (first, second) = try await onOwnThread {
                        let connection = try RawConnection(port: port, timeoutSeconds: 30)
                        defer { connection.close() }
                        try connection.send(request)
                        let first = try connection.readResponse()
                        try connection.send(Data("GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                        return (first, try connection.readResponse())
                    }
                    #expect(first.status == 413)
                    #expect(first.body.contains("payload_too_large"))
                    #expect(second.status == 200, "the next request on the connection must be answered")
                }
            }
        }
    }

    /// Runs blocking work on a thread of its own, off the cooperative pool the server also uses.
    private func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// A blocking HTTP/1.1 connection over a plain socket, with send and receive timeouts.
    private final class RawConnection {
        struct Failure: Error, CustomStringConvertible {
            let description: String
        }

        private let socketFD: Int32
        private var buffer = Data()

        init(port: Int, timeoutSeconds: Int) throws {
            socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socketFD >= 0 else { throw Failure(description: "socket() failed") }
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            let size = socklen_t(MemoryLayout<timeval>.size)
            setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &timeout, size)
            setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, size)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else {
                Glibc.close(socketFD)
                throw Failure(description: "connect() failed")
            }
        }

        func send(_ data: Data) throws {
            try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < raw.count {
                    let sent = Glibc.send(socketFD, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    guard sent > 0 else {
                        throw Failure(
                            description: "send() stopped after \(offset) of \(raw.count) bytes (errno \(errno))")
                    }
                    offset += sent
                }
            }
        }

        /// Reads one response with a `Content-Length` body.
        func readResponse() throws -> (status: Int, body: String) {
            let separator = Data("\r\n\r\n".utf8)
            while buffer.range(of: separator) == nil { try fill() }
            let headEnd = buffer.range(of: separator)!
            let head = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
            let lines = head.components(separatedBy: "\r\n")
            let status = Int(lines[0].split(separator: " ")[1]) ?? 0
            let length =
                lines.dropFirst().compactMap { line -> Int? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                    return Int(parts[1].trimmingCharacters(in: .whitespaces))
                }.first ?? 0
            while buffer.count - (headEnd.upperBound - buffer.startIndex) < length { try fill() }
            let bodyStart = headEnd.upperBound
            let body = String(decoding: buffer[bodyStart..<(bodyStart + length)], as: UTF8.self)
            buffer = Data(buffer[(bodyStart + length)...])
            return (status, body)
        }

        private func fill() throws {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = recv(socketFD, &chunk, chunk.count, 0)
            guard count > 0 else { throw Failure(description: "recv() ended (\(count), errno \(errno))") }
            buffer.append(contentsOf: chunk[0..<count])
        }

        func close() { Glibc.close(socketFD) }
    }
#endif
