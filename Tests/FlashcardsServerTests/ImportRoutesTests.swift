import FlashcardsAPI
import FlashcardsClient
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// Sends a file to `/api/v1/imports/preview` or `/api/v1/imports`.
func send(
    _ app: Application, token: String, path: String, file: Data, name: String = "Vokabeln_Englisch.txt",
    options: ImportOptionsDTO? = nil, check: (TestingHTTPResponse) async throws -> Void
) async throws {
    var fields: [String: String] = [:]
    if let options { fields["options"] = String(decoding: try JSONEncoder().encode(options), as: UTF8.self) }
    let (headers, body) = multipart(file: file, fileName: name, fields: fields)
    var all = bearerHeaders(token)
    all.replaceOrAdd(name: .contentType, value: headers.first(name: .contentType)!)
    try await app.testing().test(.POST, path, headers: all, body: body) { res in try await check(res) }
}

/// Starts an import and waits for its job.
func importFile(
    _ app: Application, token: String, file: Data, name: String = "Vokabeln_Englisch.txt",
    options: ImportOptionsDTO? = nil
) async throws -> JobModel {
    var jobId: UUID?
    try await send(app, token: token, path: "api/v1/imports", file: file, name: name, options: options) { res in
        #expect(res.status == .accepted, "\(res.body.string)")
        let job = try res.decoded(JobDTO.self)
        #expect(job.kind == "import")
        jobId = job.id
    }
    return try await waitForJob(app, try #require(jobId))
}

func cardRows(_ app: Application) async throws -> [CardModel] {
    try await CardModel.query(on: app.db).sort(\.$id).all()
}

@Suite("Import and export over HTTP")
struct ImportRoutesTests {
    @Test(
        "a Quizlet export previews with its separator and imports into a new stack", arguments: TestDatabase.available)
    func quizlet(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let file = Data("dog\tHund\ncat\tKatze\nmouse\tMaus, die\n".utf8)
            try await send(app, token: token, path: "api/v1/imports/preview", file: file) { res in
                #expect(res.status == .ok, "\(res.body.string)")
                let preview = try res.decoded(ImportPreviewDTO.self)
                #expect(preview.separator == "\t" && !preview.hasHeader && preview.cards == 3 && preview.rejected == 0)
                #expect(preview.rows.first == ["dog", "Hund"] && preview.columnCount == 2)
                #expect(preview.suggestedStackName == "Vokabeln Englisch" && preview.encoding == "utf-8")
            }
            // The preview wrote nothing.
            #expect(try await StackModel.query(on: app.db).count() == 0)
            let job = try await importFile(app, token: token, file: file)
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            let result = try JSONDecoder().decode(ImportResultDTO.self, from: Data(try #require(job.result).utf8))
            #expect(result.cardsCreated == 3 && result.stacks.count == 1 && result.stacks[0].created)
            #expect(result.stacks[0].name == "Vokabeln Englisch")
            try await app.testing().test(
                .GET, "api/v1/stacks/\(result.stacks[0].id.uuidString.lowercased())/cards",
                headers: bearerHeaders(token)
            ) { res in
                #expect(res.status == .ok)
                let page = try res.decoded(PageDTO<CardDTO>.self)
                #expect(page.items.map(\.question) == ["dog", "cat", "mouse"])
                #expect(page.items.map(\.answer) == ["Hund", "Katze", "Maus, die"])
                #expect(page.items.allSatisfy { $0.state == .new })
            }
        }
    }

    @Test(
        "an Excel CSV (semicolons, Windows-1252, a header, quoted line breaks) keeps hints and tags",
        arguments: TestDatabase.available)
    func excel(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            // "Begriff;Erklärung;Hinweis;Tags" with ä as 0xE4, as Excel on Windows saves it.
            var bytes = Array("Tags;Begriff;Bedeutung;Hinweis\r\n".utf8)
            bytes += Array("bio zelle;Mitochondrium;\"Kraftwerk der Zelle,\r\nbildet ATP\";Energie\r\n".utf8)
            bytes += Array("bio;Osmose;Diffusion von Wasser;\r\n".utf8)
            bytes += [0x67, 0x65, 0x6F, 0x3B, 0x4D, 0xE4, 0x61, 0x6E, 0x64, 0x65, 0x72, 0x3B, 0x46, 0x6C, 0x75, 0xDF]
            bytes += Array(";\r\n".utf8)
            let job = try await importFile(
                app, token: token, file: Data(bytes), name: "Bio.csv", options: ImportOptionsDTO(stackName: "Zellen"))
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            let cards = try await cardRows(app)
            #expect(cards.map(\.question) == ["Mitochondrium", "Osmose", "Mäander"])
            #expect(cards[0].answer == "Kraftwerk der Zelle,\nbildet ATP" && cards[0].hint == "Energie")
            #expect(cards[0].hintSource == "user" && cards[1].hintSource != "user" && cards[2].answer == "Fluß")
            #expect(cards.map(\.tags) == ["bio zelle", "bio", "geo"])
            #expect(try await StackModel.query(on: app.db).all().map(\.name) == ["Zellen"])
        }
    }

    @Test(
        "a large import refreshes PostgreSQL's statistics of the cards", .enabled(if: TestDatabase.postgresURL != nil))
    func largeImportAnalyzes() async throws {
        try await withApp(.postgres, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let sql = try #require(app.db as? any SQLDatabase)
            struct Row: Decodable { let analyzed: Date? }
            func lastAnalyze() async throws -> Date? {
                try await sql.raw(
                    "SELECT last_analyze AS analyzed FROM pg_stat_user_tables WHERE relid = 'cards'::regclass"
                ).first(decoding: Row.self)?.analyzed
            }
            _ = try await importFile(app, token: token, file: Data("a,b\nc,d\n".utf8), name: "Klein.csv")
            #expect(try await lastAnalyze() == nil)
            let rows = (0..<ImportWriter.analyzeAfter).map { "Frage \($0),Antwort \($0)" }.joined(separator: "\n")
            let job = try await importFile(app, token: token, file: Data(rows.utf8), name: "Gross.csv")
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            #expect(try await lastAnalyze() != nil)
        }
    }

    @Test(
        "a file with a bad row imports nothing and says which line and why", arguments: TestDatabase.available)
    func allOrNothing(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            _ = try await createCard(app, token: token, stackId: stackId, question: "Schon da")
            let file = Data("Frage;Antwort\nA;1\nB;\nC;3\n".utf8)
            try await send(app, token: token, path: "api/v1/imports/preview", file: file) { res in
                let preview = try res.decoded(ImportPreviewDTO.self)
                #expect(preview.hasHeader && preview.cards == 2 && preview.rejected == 1)
                #expect(
                    preview.problems == [
                        ImportProblemDTO(
                            code: "back_empty", line: 3, field: "back", message: "Zeile 3: Die Rückseite ist leer.")
                    ])
            }
            for options in [ImportOptionsDTO(), ImportOptionsDTO(stackId: UUID(uuidString: stackId))] {
                let job = try await importFile(app, token: token, file: file, options: options)
                #expect(job.status == "failed" && job.error == "Zeile 3: Die Rückseite ist leer.")
                #expect(try job.dto.errorCode == "back_empty")
                let problem = try JSONDecoder().decode(
                    ImportProblemDTO.self, from: Data(try #require(job.result).utf8))
                #expect(problem.line == 3 && problem.field == "back")
            }
            #expect(try await StackModel.query(on: app.db).count() == 1)
            #expect(try await cardRows(app).map(\.question) == ["Schon da"])
            // An unclosed quote names the line its row starts on.
            let broken = try await importFile(app, token: token, file: Data("a,b\n\"c,d\ne,f\n".utf8))
            #expect(try broken.status == "failed" && broken.dto.errorCode == "unterminated_quote")
            #expect(broken.error == "Zeile 2: Ein Feld in Anführungszeichen wird nicht geschlossen.")
        }
    }

    @Test("cards go into an existing stack of the caller's only", arguments: TestDatabase.available)
    func existingStack(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let other = try await app.compatSignup(name: "Eve", mail: "eve@example.org")
            let file = Data("a,b\nc,d\n".utf8)
            try await send(
                app, token: other, path: "api/v1/imports", file: file,
                options: ImportOptionsDTO(stackId: UUID(uuidString: stackId))
            ) { res in
                #expect(res.status == .notFound)
            }
            let job = try await importFile(
                app, token: token, file: file, options: ImportOptionsDTO(stackId: UUID(uuidString: stackId)))
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            let result = try JSONDecoder().decode(ImportResultDTO.self, from: Data(try #require(job.result).utf8))
            #expect(result.stacks.map(\.created) == [false] && result.stacks[0].id.uuidString.lowercased() == stackId)
            #expect(try await StackModel.query(on: app.db).count() == 1)
            #expect(try await cardRows(app).map(\.question) == ["a", "c"])
        }
    }

    @Test("bad uploads and options get a clear 4xx", arguments: TestDatabase.available)
    func badInput(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let cases: [(Data, [String: String], HTTPStatus, String)] = [
                (Data("%PDF-1.4\n\0\0binary".utf8), [:], .unsupportedMediaType, "CSV- und TSV-Dateien"),
                (Data([0x50, 0x4B, 0x03, 0x04, 0, 0]), [:], .unsupportedMediaType, "Anki"),
                (Data("a,b\n".utf8), ["options": "{nope"], .badRequest, "JSON"),
                (Data("a,b\n".utf8), ["options": #"{"separator":"ab"}"#], .badRequest, "Trennzeichen"),
                (Data("a,b\n".utf8), ["options": #"{"stackName":"  "}"#], .badRequest, "Name"),
            ]
            for (file, fields, status, message) in cases {
                let (headers, body) = multipart(file: file, fields: fields)
                var all = bearerHeaders(token)
                all.replaceOrAdd(name: .contentType, value: headers.first(name: .contentType)!)
                try await app.testing().test(.POST, "api/v1/imports", headers: all, body: body) { res in
                    #expect(res.status == status, "\(res.body.string)")
                    #expect(res.body.string.contains(message), "\(res.body.string)")
                }
            }
            try await app.testing().test(
                .POST, "api/v1/imports", headers: bearerHeaders(token), body: rawJSON(#"{"a":1}"#)
            ) { res in
                #expect(res.status == .badRequest)
            }
            // A preview's mapping that names a missing column says so instead of failing.
            try await send(
                app, token: token, path: "api/v1/imports/preview", file: Data("a,b\n".utf8),
                options: ImportOptionsDTO(columns: ImportColumnsDTO(front: 0, back: 5))
            ) { res in
                #expect(res.status == .ok)
                let codes = try res.decoded(ImportPreviewDTO.self).problems.map(\.code)
                #expect(codes == ["bad_mapping"])
            }
            try await app.testing().test(.POST, "api/v1/imports/preview") { res in #expect(res.status == .unauthorized)
            }
            #expect(try await JobModel.query(on: app.db).filter(\.$kind == "import").count() == 0)
        }
    }

    @Test("a stack exports as CSV and TSV that import back unchanged", arguments: TestDatabase.available)
    func exportRoundTrip(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let source =
                "Frage;Antwort;Hinweis;Tags\n\"Was ist \"\"Osmose\"\"?\";\"Diffusion,\nvon Wasser\";;bio\nÄ;Ö;Ü;x y\n"
            let imported = try await importFile(app, token: token, file: Data(source.utf8), name: "Über Zellen.csv")
            let result = try JSONDecoder().decode(ImportResultDTO.self, from: Data(try #require(imported.result).utf8))
            let stackId = result.stacks[0].id.uuidString.lowercased()
            var csv = Data()
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stackId)/export?format=csv", headers: bearerHeaders(token)
            ) { res in
                #expect(res.status == .ok)
                #expect(res.headers.contentType?.description == "text/csv; charset=utf-8")
                let disposition = try #require(res.headers.first(name: .contentDisposition))
                #expect(disposition.contains("filename=\"_ber Zellen.csv\""))
                #expect(disposition.contains("filename*=UTF-8''%C3%9Cber%20Zellen.csv"))
                csv = Data(res.body.readableBytesView)
            }
            #expect(csv.starts(with: [0xEF, 0xBB, 0xBF]))
            #expect(
                String(decoding: csv, as: UTF8.self).hasPrefix("\u{FEFF}Vorderseite,Rückseite,Hinweis,Schlagwörter\r\n")
            )
            var tsv = Data()
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stackId)/export?format=tsv", headers: bearerHeaders(token)
            ) { res in
                #expect(res.status == .ok)
                tsv = Data(res.body.readableBytesView)
            }
            for file in [csv, tsv] {
                let again = try await importFile(app, token: token, file: file)
                #expect(again.status == "succeeded", "\(again.error ?? "")")
            }
            let cards = try await cardRows(app)
            #expect(cards.count == 6)
            for copy in [cards[2...3], cards[4...5]] {
                #expect(copy.map(\.question) == cards[0...1].map(\.question))
                #expect(copy.map(\.answer) == cards[0...1].map(\.answer))
                #expect(copy.map(\.hint) == cards[0...1].map(\.hint))
                #expect(copy.map(\.tags) == cards[0...1].map(\.tags))
            }
            #expect(cards[0].question == "Was ist \"Osmose\"?" && cards[0].answer == "Diffusion,\nvon Wasser")
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stackId)/export?format=xls", headers: bearerHeaders(token)
            ) { res in #expect(res.status == .badRequest) }
            let other = try await app.compatSignup(name: "Eve", mail: "eve@example.org")
            try await app.testing().test(.GET, "api/v1/stacks/\(stackId)/export", headers: bearerHeaders(other)) {
                res in
                #expect(res.status == .notFound)
            }
        }
    }

    @Test("the SDK previews, imports, reports a refused file and exports", arguments: TestDatabase.available)
    func sdk(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            try await withRunningServer(app) { client, _ in
                _ = try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let file = Data("Begriff\tDefinition\nHund\tdog\nKatze\tcat\n".utf8)
                let preview = try await client.previewImport(file, fileName: "Tiere – Übung_1.tsv")
                #expect(preview.hasHeader && preview.cards == 2 && preview.suggestedStackName == "Tiere – Übung 1")
                let seen = Counter()
                let result = try await client.importFile(
                    file, fileName: "Tiere.tsv",
                    options: ImportOptionsDTO(columns: ImportColumnsDTO(front: 1, back: 0)),
                    progress: { _ in seen.increment() })
                #expect(result.cardsCreated == 2 && result.stacks.map(\.name) == ["Tiere"] && seen.value >= 1)
                let cards = try await client.cards(in: result.stacks[0].id)
                #expect(cards.items.map(\.question) == ["dog", "cat"])
                do {
                    _ = try await client.importFile(Data("a;b\nc;\n".utf8), fileName: "x.csv")
                    Issue.record("a file with an empty back was imported")
                } catch FlashcardsError.importRefused(let problem) {
                    #expect(problem.code == "back_empty" && problem.line == 2)
                }
                let tsv = String(
                    decoding: try await client.exportStack(result.stacks[0].id, format: .tsv), as: UTF8.self)
                // Front and back as imported; the hint column holds what the hint job wrote meanwhile.
                let rows = try DelimitedText.rows(tsv, separator: "\t")
                #expect(rows.map { Array($0.prefix(2)) } == [["dog", "Hund"], ["cat", "Katze"]])
                #expect(tsv.hasSuffix("\r\n") && rows.allSatisfy { $0.count == 4 })
                #expect(try await client.stacks().count == 1)
            }
        }
    }
}

/// Counts calls from any task.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
