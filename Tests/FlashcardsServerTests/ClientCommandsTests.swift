import ArgumentParser
import FlashcardsAPI
import FlashcardsClient
import Foundation
import Testing

@testable import FlashcardsCLI
@testable import FlashcardsServer

@Suite("The flashcards CLI as a client of a running server")
struct ClientCommandsTests {
    @Test("login keeps the token private; stacks, import (new and existing stack, refused, dry run), export, logout")
    func session() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["FLASHCARDS_CONFIG_DIR": directory.appendingPathComponent("config").path]
        try await withApp(.sqlite, adjust: workers(1)) { app in
            try await withRunningServer(app) { client, url in
                _ = try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let server = url.absoluteString
                func run<C: ClientCommand>(_ type: C.Type, _ arguments: [String], input: String? = nil) async throws
                    -> [String]
                {
                    let output = CommandOutput(collecting: true)
                    let command = try C.parse(arguments)
                    try await command.execute(output: output, environment: environment) { input }
                    return output.lines
                }
                // Not signed in yet.
                await #expect(throws: CleanExitError.self) { try await run(StacksCommand.self, ["--server", server]) }
                do {
                    _ = try await run(
                        LoginCommand.self, ["--server", server, "--mail", "ada@example.org", "--password-stdin"],
                        input: "wrong")
                    Issue.record("a wrong password signed in")
                } catch let error as FlashcardsError {
                    // A refused credential, not an expired sign-in.
                    #expect(describe(error) == "Wrong mail or password.")
                }
                let login = try await run(
                    LoginCommand.self, ["--server", server, "--mail", "ada@example.org", "--password-stdin"],
                    input: "correct horse")
                #expect(login == ["Signed in as Ada <ada@example.org> at \(server)."])
                let credentials = ClientConfig(environment: environment).file.path
                let mode = try FileManager.default.attributesOfItem(atPath: credentials)[.posixPermissions] as? Int
                #expect(mode == 0o600)
                #expect(ClientConfig(environment: environment).load()?.server == server)
                // The stored server is used without --server from now on.
                #expect(try await run(StacksCommand.self, []) == ["No stacks yet."])

                let file = directory.appendingPathComponent("englisch.tsv")
                try Data("dog\tHund\ncat\tKatze\n".utf8).write(to: file)
                let dry = try await run(ImportCommand.self, [file.path, "--stack", "Vokabeln", "--dry-run"])
                #expect(dry == ["2 cards would be imported as a new stack \"Vokabeln\"; nothing was imported."])
                let first = try await run(ImportCommand.self, [file.path, "--stack", "Vokabeln"])
                #expect(first.count == 1 && first[0].hasPrefix("Imported 2 cards into \"Vokabeln\""))
                _ = try await run(ImportCommand.self, [file.path, "--stack", "Vokabeln"])
                let stacks = try await client.stacks()
                #expect(stacks.map(\.name) == ["Vokabeln"] && stacks[0].cardCount == 4)

                let bad = directory.appendingPathComponent("kaputt.csv")
                try Data("a;b\nc;\nd;e\n".utf8).write(to: bad)
                let output = CommandOutput(collecting: true)
                do {
                    try await ImportCommand.parse([bad.path]).execute(output: output, environment: environment) { nil }
                    Issue.record("a file with a bad line was imported")
                } catch let error as CleanExitError {
                    #expect(error.message == "The file has 1 lines with problems.")
                }
                #expect(output.lines.first == "Zeile 2: Die Rückseite ist leer.")
                #expect(try await client.stacks().count == 1)

                let listed = try await run(StacksCommand.self, [])
                #expect(listed.count == 2 && listed[1].contains("Vokabeln") && listed[1].hasPrefix("    4"))
                let exported = directory.appendingPathComponent("out.tsv").path
                let wrote = try await run(ExportCommand.self, ["Vokabeln", "--format", "tsv", "-o", exported])
                #expect(wrote == ["Wrote 4 cards to \(exported)."])
                let rows = try DelimitedText.rows(
                    try String(contentsOfFile: exported, encoding: .utf8), separator: "\t")
                #expect(
                    rows.map { Array($0.prefix(2)) } == [
                        ["dog", "Hund"], ["cat", "Katze"], ["dog", "Hund"], ["cat", "Katze"],
                    ])
                await #expect(throws: CleanExitError.self) { try await run(ExportCommand.self, ["Nichts"]) }

                // The stack as JSON, the whole account as a zipped backup, restored into another account.
                let json = directory.appendingPathComponent("vokabeln.json").path
                #expect(try await run(ExportCommand.self, ["Vokabeln", "--format", "json", "-o", json]).count == 1)
                let copy = try await run(ImportCommand.self, [json, "--stack", "Kopie"])
                #expect(copy.count == 1 && copy[0].hasPrefix("Imported 4 cards into \"Kopie\""))
                let backup = directory.appendingPathComponent("konto.zip").path
                #expect(
                    try await run(ExportCommand.self, ["--account", "--format", "zip", "-o", backup]) == [
                        "Wrote the account's backup to \(backup)."
                    ])
                await #expect(throws: ValidationError.self) {
                    try await run(ExportCommand.self, ["--account", "Vokabeln"])
                }
                // Grace restores it through $FLASHCARDS_TOKEN: Ada's two stacks with their cards.
                let grace = FlashcardsClient(baseURL: url)
                let graceToken = try await grace.signup(
                    name: "Grace", mail: "grace@example.org", password: "correct horse"
                ).token
                let restoreOutput = CommandOutput(collecting: true)
                var graceEnvironment = environment
                graceEnvironment["FLASHCARDS_TOKEN"] = graceToken
                try await ImportCommand.parse([backup, "--restore", "--server", server])
                    .execute(output: restoreOutput, environment: graceEnvironment) { nil }
                #expect(restoreOutput.lines == ["Restored 2 stacks with 8 cards and 0 reviews."])
                #expect(Set(try await grace.stacks().map(\.name)) == ["Vokabeln", "Kopie"])
                #expect(try await grace.me().name == "Ada")

                // A personal access token works for the commands too.
                let personal = try await client.createAccessToken(name: "cli", scopes: [.read]).secret
                var personalEnvironment = environment
                personalEnvironment["FLASHCARDS_TOKEN"] = personal
                let personalOutput = CommandOutput(collecting: true)
                try await StacksCommand.parse(["--server", server])
                    .execute(output: personalOutput, environment: personalEnvironment) { nil }
                #expect(personalOutput.lines.contains { $0.contains("Vokabeln") })

                let token = try #require(ClientConfig(environment: environment).load()?.token)
                #expect(try await run(LogoutCommand.self, []) == ["Signed out."])
                #expect(ClientConfig(environment: environment).load() == nil)
                // The server revoked the token too.
                await #expect(throws: FlashcardsError.self) {
                    try await FlashcardsClient(baseURL: url, token: token).me()
                }
            }
        }
    }
}
