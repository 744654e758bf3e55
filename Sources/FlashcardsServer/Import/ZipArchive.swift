import CZlib
import Foundation

/// Zip files (PKWARE APPNOTE) in memory: Anki packages and backups. Reads stored and deflated
/// entries of an archive without encryption or Zip64. Every entry is inflated under a size limit,
/// so a zip bomb stops at the limit instead of filling memory, and names that could leave a folder
/// (`../x`, `/etc/passwd`, `C:\x`) are refused when the archive is opened.
struct ZipArchive {
    struct Entry: Sendable {
        let name: String
        let method: UInt16
        let crc: UInt32
        let compressedSize: Int
        let size: Int
        let localHeaderOffset: Int
    }

    enum Failure: Error, Equatable {
        /// Not a zip file, or a broken one.
        case notAZip
        /// Zip64, encryption or a compression other than deflate.
        case unsupported
        /// A name that could leave the folder it is unpacked into.
        case unsafeName(String)
        /// The entry unpacks to more than the limit.
        case tooLarge(String)
        /// The entry's data does not match its checksum, or does not inflate.
        case corrupt(String)
    }

    private let bytes: [UInt8]
    let entries: [Entry]

    /// Opens the archive: reads its central directory and checks every name.
    init(_ data: Data) throws(Failure) {
        let bytes = [UInt8](data)
        self.bytes = bytes
        // The end of central directory record: 22 bytes plus a comment of up to 65,535.
        guard bytes.count >= 22 else { throw .notAZip }
        var end = -1
        var position = bytes.count - 22
        while position >= max(0, bytes.count - 22 - 65_535) {
            if Self.uint32(bytes, position) == 0x0605_4B50 {
                end = position
                break
            }
            position -= 1
        }
        guard end >= 0 else { throw .notAZip }
        let count = Int(Self.uint16(bytes, end + 10))
        let directoryOffset = Int(Self.uint32(bytes, end + 16))
        if count == 0xFFFF || directoryOffset == 0xFFFF_FFFF { throw .unsupported }
        var entries: [Entry] = []
        var offset = directoryOffset
        for _ in 0..<count {
            guard offset + 46 <= bytes.count, Self.uint32(bytes, offset) == 0x0201_4B50 else { throw .notAZip }
            let flags = Self.uint16(bytes, offset + 8)
            let method = Self.uint16(bytes, offset + 10)
            let compressed = Self.uint32(bytes, offset + 20)
            let size = Self.uint32(bytes, offset + 24)
            let nameLength = Int(Self.uint16(bytes, offset + 28))
            let extraLength = Int(Self.uint16(bytes, offset + 30))
            let commentLength = Int(Self.uint16(bytes, offset + 32))
            let local = Self.uint32(bytes, offset + 42)
            guard offset + 46 + nameLength <= bytes.count else { throw .notAZip }
            let name = String(decoding: bytes[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self)
            if flags & 1 != 0 || compressed == 0xFFFF_FFFF || size == 0xFFFF_FFFF || local == 0xFFFF_FFFF {
                throw .unsupported
            }
            guard Self.isSafe(name) else { throw .unsafeName(name) }
            entries.append(
                Entry(
                    name: name, method: method, crc: Self.uint32(bytes, offset + 16), compressedSize: Int(compressed),
                    size: Int(size), localHeaderOffset: Int(local)))
            offset += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// Whether `data` starts like a zip file.
    static func looksLikeZip(_ data: Data) -> Bool { data.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    /// A name that stays inside the folder: relative, no `..` part, no backslash, no NUL.
    static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\\"), !name.contains("\0") else { return false }
        if name.count >= 2, name.dropFirst().first == ":" { return false }
        return !name.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }

    func entry(_ name: String) -> Entry? { entries.first { $0.name == name } }

    /// The unpacked bytes of `entry`: a declared size over `limit` throws `tooLarge` before anything
    /// is inflated, and data that inflates past its declared size throws `corrupt`.
    func contents(of entry: Entry, limit: Int) throws(Failure) -> Data {
        let local = entry.localHeaderOffset
        guard local + 30 <= bytes.count, Self.uint32(bytes, local) == 0x0403_4B50 else { throw .corrupt(entry.name) }
        let start = local + 30 + Int(Self.uint16(bytes, local + 26)) + Int(Self.uint16(bytes, local + 28))
        guard start + entry.compressedSize <= bytes.count else { throw .corrupt(entry.name) }
        let raw = bytes[start..<(start + entry.compressedSize)]
        if entry.size > limit { throw .tooLarge(entry.name) }
        let output: Data
        switch entry.method {
        case 0:
            guard raw.count <= limit else { throw .tooLarge(entry.name) }
            output = Data(raw)
        case 8:
            // Never more than the header declares: data that inflates past it is broken (or a bomb).
            do {
                output = try Self.inflate(raw, limit: entry.size, name: entry.name)
            } catch .tooLarge {
                throw .corrupt(entry.name)
            }
        default: throw .unsupported
        }
        guard Self.crc32(output) == entry.crc else { throw .corrupt(entry.name) }
        return output
    }

    /// The unpacked bytes of the entry named `name`, if there is one.
    func contents(of name: String, limit: Int) throws(Failure) -> Data? {
        guard let entry = entry(name) else { return nil }
        return try contents(of: entry, limit: limit)
    }

    // MARK: Writing

    /// A zip file of `files` (name, bytes), each deflated unless that does not make it smaller.
    static func make(_ files: [(name: String, data: Data)]) -> Data {
        var archive = Data()
        var directory = Data()
        for (name, content) in files {
            let deflated = deflate(content)
            let stored = deflated.count >= content.count
            let body = stored ? content : deflated
            let crc = crc32(content)
            let nameBytes = Data(name.utf8)
            let offset = UInt32(archive.count)
            var local = Data()
            local.append(le32: 0x0403_4B50)
            local.append(le16: 20)
            local.append(le16: 0x0800)  // UTF-8 names
            local.append(le16: stored ? 0 : 8)
            local.append(le16: 0)
            local.append(le16: 0x21)  // 1980-01-01
            local.append(le32: crc)
            local.append(le32: UInt32(body.count))
            local.append(le32: UInt32(content.count))
            local.append(le16: UInt16(nameBytes.count))
            local.append(le16: 0)
            archive.append(local)
            archive.append(nameBytes)
            archive.append(body)
            directory.append(le32: 0x0201_4B50)
            directory.append(le16: 20)
            directory.append(local[4..<30])
            directory.append(le16: 0)  // comment
            directory.append(le16: 0)  // disk
            directory.append(le16: 0)  // internal attributes
            directory.append(le32: 0)  // external attributes
            directory.append(le32: offset)
            directory.append(nameBytes)
        }
        let directoryOffset = UInt32(archive.count)
        archive.append(directory)
        archive.append(le32: 0x0605_4B50)
        archive.append(le16: 0)
        archive.append(le16: 0)
        archive.append(le16: UInt16(files.count))
        archive.append(le16: UInt16(files.count))
        archive.append(le32: UInt32(directory.count))
        archive.append(le32: directoryOffset)
        archive.append(le16: 0)
        return archive
    }

    // MARK: zlib

    static func crc32(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { buffer in
            var crc: uLong = CZlib.crc32(0, nil, 0)
            var offset = 0
            // zlib takes a 32-bit length.
            while offset < buffer.count {
                let chunk = min(buffer.count - offset, 1 << 30)
                crc = CZlib.crc32(
                    crc, buffer.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(chunk))
                offset += chunk
            }
            return UInt32(crc)
        }
    }

    /// Raw deflate data (no zlib header) inflated, at most `limit` bytes.
    static func inflate(_ input: ArraySlice<UInt8>, limit: Int, name: String) throws(Failure) -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt(name)
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        let chunkSize = 256 * 1_024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var status: Int32 = Z_OK
        input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(chunkSize)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(target.baseAddress!, count: chunkSize - Int(stream.avail_out))
                }
            } while status == Z_OK && output.count <= limit && !(stream.avail_in == 0 && stream.avail_out != 0)
        }
        if output.count > limit { throw .tooLarge(name) }
        guard status == Z_STREAM_END else { throw .corrupt(name) }
        return output
    }

    /// `input` as raw deflate data (level 6).
    static func deflate(_ input: Data) -> Data {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return input }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let source = [UInt8](input)
        let written: Int = source.withUnsafeBufferPointer { from in
            output.withUnsafeMutableBufferPointer { to in
                stream.next_in = UnsafeMutablePointer(mutating: from.baseAddress)
                stream.avail_in = uInt(from.count)
                stream.next_out = to.baseAddress
                stream.avail_out = uInt(bound)
                guard CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END else { return -1 }
                return bound - Int(stream.avail_out)
            }
        }
        return written < 0 ? input : Data(output[0..<written])
    }

    private static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}

extension Data {
    fileprivate mutating func append(le16 value: UInt16) {
        append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)])
    }

    fileprivate mutating func append(le32 value: UInt32) {
        append(contentsOf: (0..<4).map { UInt8((value >> ($0 * 8)) & 0xFF) })
    }
}
