import FlashcardsAPI
import FlashcardsTestServer
import Foundation
import Testing

@testable import FlashcardsClient

/// The SDK's requests and its reading of errors: the pieces on their own, then against the real
/// server (`flashcards serve`, its own process).
@Suite("FlashcardsClient: requests and errors")
struct ClientTests {
    @Test("an error status is classified, with the server's message and code when it sent one")
    func errorClassification() {
        let body = Data(#"{"message":"Diesen Stapel gibt es nicht.","code":"stack_not_found"}"#.utf8)
        let expected = ErrorResponse(message: "Diesen Stapel gibt es nicht.", code: "stack_not_found")
        #expect(FlashcardsError.from(status: 404, body: body, retryAfter: nil) == .notFound(expected))
        #expect(FlashcardsError.from(status: 400, body: body, retryAfter: nil) == .invalid(expected))
        #expect(FlashcardsError.from(status: 401, body: Data(), retryAfter: nil) == .unauthorized(nil))
        #expect(FlashcardsError.from(status: 413, body: body, retryAfter: nil) == .tooLarge(expected))
        #expect(
            FlashcardsError.from(status: 429, body: body, retryAfter: "17") == .rateLimited(retryAfter: 17, expected))
        #expect(
            FlashcardsError.from(status: 429, body: body, retryAfter: "bald") == .rateLimited(retryAfter: nil, expected)
        )
        // A body that is no error document (a proxy's HTML page) leaves only the status.
        #expect(
            FlashcardsError.from(status: 502, body: Data("<html>Bad Gateway</html>".utf8), retryAfter: nil)
                == .http(status: 502, nil))
        #expect(FlashcardsError.from(status: 500, body: body, retryAfter: nil).code == "stack_not_found")
        #expect(
            FlashcardsError.importRefused(ImportProblemDTO(code: "back_empty", message: "leer")).code == "back_empty")
    }

    @Test("a multipart body carries the fields in order, then the file, with quotes and line breaks taken out")
    func multipart() throws {
        let (type, body) = Transport.multipartBody(
            file: Data("a;b\n".utf8), fileField: "file", fileName: "Vokabeln \"neu\"\r\n.csv",
            fields: ["options": #"{"separator":";"}"#, "a": "1"])
        let boundary = try #require(type.split(separator: "=").last.map(String.init))
        #expect(type == "multipart/form-data; boundary=\(boundary)")
        let text = String(decoding: body, as: UTF8.self)
        #expect(
            text == "--\(boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"options\"\r\n\r\n{\"separator\":\";\"}\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"Vokabeln %22neu%22.csv\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\na;b\n\r\n--\(boundary)--\r\n")
    }

    @Test("endpoints fill their path parameters in order")
    func endpointPaths() {
        #expect(Endpoint.V1.showCard.path("s", "c") == "api/v1/stacks/s/cards/c")
        #expect(Endpoint.V1.showCard.method == .get && Endpoint.V1.updateCard.method == .patch)
        #expect(Endpoint.Compat.showCard.path("7", "c") == "stack/7/card/c")
    }

    @Test("against the server: the token is sent, queries and bodies arrive, errors come back classified")
    func againstServer() async throws {
        try await TestServer.with { server in
            let client = server.client()
            try await client.health()
            // Without a token: 401.
            await #expect(throws: FlashcardsError.self) { _ = try await client.stacks() }
            do {
                _ = try await client.stacks()
            } catch let error as FlashcardsError {
                guard case .unauthorized = error else {
                    Issue.record("\(error)")
                    return
                }
            }
            let auth = try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
            #expect(client.token == auth.token && auth.user.name == "Ada")
            #expect(try await client.me().mail == "ada@example.org")
            // A second client with the same token is the same learner; the compatibility client
            // shares it (sent raw, as the original apps send it).
            #expect(try await server.client(token: auth.token).me().id == auth.user.id)
            #expect(try await client.compat.stacks().isEmpty)

            let stack = try await client.createStack(name: "Küche & Keller", color: "#2563EB")
            for (question, answer) in [("der Löffel", "spoon"), ("die Gabel", "fork"), ("das Messer", "knife")] {
                _ = try await client.createCard(in: stack.id, question: question, answer: answer)
            }
            let page = try await client.cards(in: stack.id, page: 1, perPage: 2, search: "gabel")
            #expect(page.total == 1 && page.items.map(\.answer) == ["fork"] && page.perPage == 2)
            #expect(try await client.cards(in: stack.id, perPage: 2).items.count == 2)

            // Errors with the server's codes.
            do {
                _ = try await client.stack(UUID())
                Issue.record("an unknown stack was found")
            } catch let error as FlashcardsError {
                #expect(error.code == "stack_not_found", "\(error)")
                guard case .notFound = error else {
                    Issue.record("\(error)")
                    return
                }
            }
            do {
                _ = try await client.createStack(name: "", color: "#2563EB")
                Issue.record("an empty name was taken")
            } catch let error as FlashcardsError {
                guard case .invalid(let body) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(body?.code == "validation_failed" && body?.message.isEmpty == false)
            }
            let other = server.client()
            do {
                _ = try await other.login(mail: "ada@example.org", password: "battery staple")
                Issue.record("a wrong password signed in")
            } catch let error as FlashcardsError {
                #expect(error.code == "wrong_password", "\(error)")
            }

            // A multipart upload: the preview of a CSV.
            let preview = try await client.previewImport(
                Data("Frage;Antwort\nÄpfel;apples\n\"mit ; Semikolon\";x\n".utf8), fileName: "obst.csv")
            #expect(preview.cards == 2 && preview.separator == ";" && preview.problems.isEmpty)

            // An unreachable server is a transport error.
            server.stop()
            do {
                _ = try await client.stacks()
                Issue.record("a stopped server answered")
            } catch let error as FlashcardsError {
                guard case .transport = error else {
                    Issue.record("\(error)")
                    return
                }
            }
        }
    }
}
