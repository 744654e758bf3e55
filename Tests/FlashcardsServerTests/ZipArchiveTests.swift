import Foundation
import Testing

@testable import FlashcardsServer

@Suite("Zip archives: reading within limits, writing what zip tools read")
struct ZipArchiveTests {
    @Test("written files read back, deflated or stored, with their names")
    func roundTrip() throws {
        let text = Data(String(repeating: "Mitochondrium ist das Kraftwerk der Zelle. ", count: 200).utf8)
        let random = Data((0..<500).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        let archive = ZipArchive.make([("collection.anki21", text), ("0", random), ("leer", Data())])
        let zip = try ZipArchive(archive)
        #expect(zip.entries.map(\.name) == ["collection.anki21", "0", "leer"])
        #expect(zip.entries[0].method == 8 && zip.entries[0].compressedSize < text.count / 10)
        #expect(try zip.contents(of: "collection.anki21", limit: 1 << 20) == text)
        #expect(try zip.contents(of: "0", limit: 1 << 20) == random)
        #expect(try zip.contents(of: "leer", limit: 10) == Data())
        #expect(try zip.contents(of: "fehlt", limit: 10) == nil)
    }

    @Test("a bomb stops at the limit; names that leave the folder, broken data and non-zips are refused")
    func refusals() throws {
        let zeros = Data(count: 20 * 1_024 * 1_024)
        let bomb = try ZipArchive(ZipArchive.make([("collection.anki2", zeros)]))
        #expect(bomb.entries[0].compressedSize < 100_000)
        #expect(throws: ZipArchive.Failure.tooLarge("collection.anki2")) {
            try bomb.contents(of: "collection.anki2", limit: 1 << 20)
        }
        // A header that understates the size: inflating stops at the declared size.
        var understated = ZipArchive.make([("c", zeros)])
        for offset in [22, understated.count - 22 - 47 + 24] {  // local and central "uncompressed size"
            understated.replaceSubrange(offset..<(offset + 4), with: [0x00, 0x10, 0, 0])
        }
        #expect(throws: ZipArchive.Failure.corrupt("c")) {
            try ZipArchive(understated).contents(of: "c", limit: 1 << 30)
        }
        for name in ["../../evil.txt", "/etc/passwd", "a/../../b", "C:\\x", "a\\b"] {
            #expect(throws: ZipArchive.Failure.unsafeName(name)) {
                try ZipArchive(ZipArchive.make([(name, Data("x".utf8))]))
            }
        }
        var broken = ZipArchive.make([("a.txt", Data(String(repeating: "abc", count: 100).utf8))])
        broken[40] ^= 0xFF  // inside the deflated data
        #expect(throws: ZipArchive.Failure.self) { try ZipArchive(broken).contents(of: "a.txt", limit: 1 << 20) }
        #expect(throws: ZipArchive.Failure.notAZip) { try ZipArchive(Data("PK\u{3}\u{4} but no directory".utf8)) }
        #expect(throws: ZipArchive.Failure.notAZip) { try ZipArchive(Data()) }
    }

    @Test("Python's zipfile reads what we write, and we read what it writes")
    func interoperates() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ours = directory.appendingPathComponent("ours.zip")
        try ZipArchive.make([("media", Data("{\"0\": \"zelle.png\"}".utf8)), ("0", Data(repeating: 7, count: 5_000))])
            .write(to: ours)
        let theirs = directory.appendingPathComponent("theirs.zip")
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None
                assert z.read("media") == b'{"0": "zelle.png"}' and z.read("0") == bytes([7]) * 5000
            with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("collection.anki2", b"SQLite format 3" * 100)
                z.writestr("stored", b"plain", compress_type=zipfile.ZIP_STORED)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, ours.path, theirs.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let zip = try ZipArchive(try Data(contentsOf: theirs))
        #expect(
            try zip.contents(of: "collection.anki2", limit: 1 << 20)
                == Data(String(repeating: "SQLite format 3", count: 100).utf8))
        #expect(try zip.contents(of: "stored", limit: 100) == Data("plain".utf8))
    }
}
