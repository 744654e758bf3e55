import Foundation

/// The image types a card may show, told apart by their first bytes (never by a file name).
public enum ImageType: String, Sendable, Codable, Hashable, CaseIterable {
    case jpeg, png, gif, webp

    /// The media type served.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        }
    }

    /// The usual file extension (Anki's media files, exports).
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// The type of an image of `data`, or nil when it is none of ours.
    public static func sniff(_ data: Data) -> ImageType? {
        let head = [UInt8](data.prefix(16))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        return nil
    }
}

/// An image's width and height in pixels, read from its header without decoding it.
public struct PixelSize: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size `data` (of `type`) declares, or nil when its header is broken.
    public static func read(_ data: Data, type: ImageType) -> PixelSize? {
        let bytes = [UInt8](data.prefix(type == .jpeg ? data.count : 64))
        func be16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func le24(_ at: Int) -> Int { le16(at) | Int(bytes[at + 2]) << 16 }
        func be32(_ at: Int) -> Int { be16(at) << 16 | be16(at + 2) }
        var size: PixelSize?
        switch type {
        case .png:
            guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
            size = PixelSize(width: be32(16), height: be32(20))
        case .gif:
            guard bytes.count >= 10 else { return nil }
            size = PixelSize(width: le16(6), height: le16(8))
        case .webp:
            guard bytes.count >= 30 else { return nil }
            switch String(decoding: bytes[12..<16], as: UTF8.self) {
            case "VP8 ":
                size = PixelSize(width: le16(26) & 0x3FFF, height: le16(28) & 0x3FFF)
            case "VP8L":
                let bits = le16(21) | le16(23) << 16
                size = PixelSize(width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
            case "VP8X":
                size = PixelSize(width: le24(24) + 1, height: le24(27) + 1)
            default: return nil
            }
        case .jpeg:
            // Segments from the start: the first start-of-frame marker holds the size.
            var index = 2
            while index + 9 < bytes.count {
                guard bytes[index] == 0xFF else { return nil }
                let marker = bytes[index + 1]
                if marker == 0xFF {
                    index += 1
                    continue
                }
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    size = PixelSize(width: be16(index + 7), height: be16(index + 5))
                    break
                }
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                    index += 2
                    continue
                }
                index += 2 + be16(index + 2)
            }
        }
        guard let size, size.width > 0, size.height > 0 else { return nil }
        return size
    }
}

/// What a PNG's header says about transparency.
enum PNGHeader {
    /// Whether the PNG has an alpha channel or a transparency chunk before its image data.
    static func hasAlpha(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(4_096))
        guard bytes.count > 25 else { return false }
        if bytes[25] == 4 || bytes[25] == 6 { return true }
        return data.prefix(4_096).range(of: Data("tRNS".utf8)) != nil
    }
}

/// A card image as stored: re-encoded, at most `CardImageProcessor.maximumSide` pixels on its
/// longer side, without any metadata (no EXIF, so no GPS position, no camera, no thumbnail).
public struct ProcessedImage: Sendable {
    public var data: Data
    public var type: ImageType
    public var size: PixelSize
}

/// Why an image was refused.
public enum ImageError: Error, Sendable, Equatable {
    /// Empty upload.
    case empty
    /// Larger than `CardImageProcessor.maximumBytes`.
    case tooLarge
    /// Not a JPEG, PNG, GIF or WebP image.
    case unsupportedType
    /// The header is broken or the picture cannot be decoded.
    case unreadable
    /// More pixels than `CardImageProcessor.maximumPixels` (a decompression bomb, or a poster).
    case tooManyPixels
    /// The converter is not installed.
    case toolMissing
    /// The converter took too long.
    case timeout

    /// What the learner reads.
    public var germanMessage: String {
        switch self {
        case .empty: "Die Bilddatei ist leer."
        case .tooLarge: "Bilder dürfen höchstens 10 MB groß sein."
        case .unsupportedType: "Es werden nur Bilder im Format JPEG, PNG, GIF oder WebP angenommen."
        case .unreadable: "Das Bild ist beschädigt und lässt sich nicht lesen."
        case .tooManyPixels: "Das Bild hat zu viele Pixel (höchstens 60 Megapixel)."
        case .toolMissing:
            "Bilder können gerade nicht verarbeitet werden (libvips-tools fehlt auf dem Server)."
        case .timeout: "Das Bild konnte nicht rechtzeitig verarbeitet werden."
        }
    }
}

/// Checks an uploaded image and re-encodes it with libvips (`vipsthumbnail`, Debian's
/// `libvips-tools`): turned upright by its EXIF orientation, shrunk to fit
/// `maximumSide`×`maximumSide` (never enlarged), every piece of metadata stripped. JPEG stays JPEG
/// (quality 82), PNG and GIF become PNG (a GIF's first frame; a PNG over 2 MB without transparency
/// becomes JPEG), WebP stays WebP.
public enum CardImageProcessor {
    /// The largest upload accepted.
    public static let maximumBytes = 10 * 1_024 * 1_024
    /// The most pixels an upload may declare.
    public static let maximumPixels = 60_000_000
    /// The longest side kept.
    public static let maximumSide = 1_600

    /// Whether the converter is installed.
    public static var isAvailable: Bool { ProcessRunner.locate("vipsthumbnail") != nil }

    /// The stored form of `data`.
    public static func process(_ data: Data) async throws(ImageError) -> ProcessedImage {
        guard !data.isEmpty else { throw .empty }
        guard data.count <= maximumBytes else { throw .tooLarge }
        guard let type = ImageType.sniff(data) else { throw .unsupportedType }
        guard let declared = PixelSize.read(data, type: type) else { throw .unreadable }
        guard declared.width * declared.height <= maximumPixels else { throw .tooManyPixels }
        let image = try await convert(data, to: type == .gif ? .png : type)
        // A photo saved as PNG (a screenshot of one) stays huge as PNG: without transparency it is
        // stored as a JPEG instead.
        if image.type == .png, image.data.count > largePNG, !PNGHeader.hasAlpha(image.data) {
            return try await convert(image.data, to: .jpeg)
        }
        return image
    }

    /// PNG output larger than this, without transparency, becomes JPEG.
    static let largePNG = 2 * 1_024 * 1_024

    private static func convert(_ data: Data, to outputType: ImageType) async throws(ImageError) -> ProcessedImage {
        let options: String
        switch outputType {
        case .jpeg: options = "[Q=82,optimize_coding,strip]"
        case .png: options = "[compression=6,strip]"
        case .webp: options = "[Q=82,strip]"
        case .gif: options = "[strip]"
        }
        do {
            return try await TemporaryWorkspace.with { folder in
                let input = folder.appendingPathComponent("input")
                let output = folder.appendingPathComponent("output." + outputType.fileExtension)
                try data.write(to: input)
                let run = try await ProcessRunner.run(
                    tool: "vipsthumbnail", package: "libvips-tools",
                    arguments: [
                        input.path, "--size", "\(maximumSide)x\(maximumSide)>", "-o", output.path + options,
                    ],
                    limits: ProcessLimits(timeoutSeconds: 20, memoryBytes: 2 << 30, maximumOutputBytes: 1 << 20),
                    environment: ["VIPS_CONCURRENCY": "2"])
                guard run.exitCode == 0, var encoded = try? Data(contentsOf: output),
                    ImageType.sniff(encoded) == outputType, let size = PixelSize.read(encoded, type: outputType)
                else { throw ImageError.unreadable }
                // libvips 8.14's WebP writer keeps EXIF and XMP despite `strip`: drop their chunks.
                if outputType == .webp { encoded = WebPMetadata.stripped(encoded) }
                return ProcessedImage(data: encoded, type: outputType, size: size)
            }
        } catch let error as ImageError {
            throw error
        } catch GenerationError.toolMissing {
            throw .toolMissing
        } catch GenerationError.timeout {
            throw .timeout
        } catch {
            throw .unreadable
        }
    }
}

/// WebP's metadata chunks (RIFF): `EXIF` and `XMP ` dropped, with their flags in `VP8X` and the
/// RIFF size set anew.
enum WebPMetadata {
    static func stripped(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8)
        else { return data }
        var out: [UInt8] = Array(bytes[0..<12])
        var index = 12
        while index + 8 <= bytes.count {
            let kind = String(decoding: bytes[index..<(index + 4)], as: UTF8.self)
            let size =
                Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]) << 16
                | Int(bytes[index + 7]) << 24
            let end = index + 8 + size + (size % 2)
            guard end <= bytes.count || (end == bytes.count + 1 && size % 2 == 1) else { return data }
            let chunk = bytes[index..<min(end, bytes.count)]
            if kind == "VP8X", size >= 1 {
                var header = Array(chunk)
                header[8] &= ~UInt8(0x0C)  // the EXIF (0x08) and XMP (0x04) flags
                out += header
            } else if kind != "EXIF", kind != "XMP " {
                out += chunk
            }
            index = end
        }
        let riffSize = UInt32(out.count - 8)
        out[4] = UInt8(riffSize & 0xFF)
        out[5] = UInt8((riffSize >> 8) & 0xFF)
        out[6] = UInt8((riffSize >> 16) & 0xFF)
        out[7] = UInt8((riffSize >> 24) & 0xFF)
        return Data(out)
    }
}
