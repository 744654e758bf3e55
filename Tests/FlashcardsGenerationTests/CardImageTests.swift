import Foundation
import Testing

@testable import FlashcardsGeneration

/// Test pictures made by libvips' own `vips` (installed with `vipsthumbnail` by the test command).
enum TestImages {
    static let vips = [("vips", "libvips-tools"), ("vipsthumbnail", "libvips-tools")]

    /// A `width`×`height` picture of noise in `format` (`jpg`, `png`, `gif`, `webp`; vips save options allowed).
    static func make(width: Int, height: Int, format: String, bands: Int = 3) async throws -> Data {
        try await TemporaryWorkspace.with { folder in
            let noises = (0..<bands).map { folder.appendingPathComponent("noise\($0).v").path }
            let joined = folder.appendingPathComponent("joined.v").path
            let output = folder.appendingPathComponent("picture.\(format)").path
            // Each band its own noise, cast to 8 bits as a photo's.
            let runs =
                noises.map { ["gaussnoise", $0, "\(width)", "\(height)", "--sigma", "40", "--mean", "128"] } + [
                    ["bandjoin", noises.joined(separator: " "), joined], ["cast", joined, output, "uchar"],
                ]
            for arguments in runs {
                let run = try await ProcessRunner.run(
                    tool: "vips", package: "libvips-tools", arguments: arguments, limits: ProcessLimits())
                guard run.exitCode == 0 else { throw TestImageError(detail: run.standardError) }
            }
            return try Data(contentsOf: URL(fileURLWithPath: String(output.prefix { $0 != "[" })))
        }
    }

    /// `jpeg` with an EXIF segment holding orientation `orientation` and a GPS position, as a phone writes it.
    static func withExif(_ jpeg: Data, orientation: UInt16) -> Data {
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8]
        func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        func u32(_ value: UInt32) -> [UInt8] { u16(UInt16(value >> 16)) + u16(UInt16(value & 0xFFFF)) }
        // IFD0 at 8 (30 bytes): orientation and the GPS IFD's offset (38).
        tiff += u16(2) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
        tiff += u16(0x8825) + u16(4) + u32(1) + u32(38) + u32(0)
        // GPS IFD at 38 (30 bytes): latitude reference and latitude (three rationals at 68).
        tiff += u16(2) + u16(0x0001) + u16(2) + u32(2) + Array("N".utf8) + [0, 0, 0]
        tiff += u16(0x0002) + u16(5) + u32(3) + u32(68) + u32(0)
        tiff += u32(52) + u32(1) + u32(31) + u32(1) + u32(4_711) + u32(100)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1] + u16(UInt16(payload.count + 2)) + payload
        var bytes = [UInt8](jpeg)
        bytes.insert(contentsOf: segment, at: 2)
        return Data(bytes)
    }

    /// The JPEG's segment markers up to the image data.
    static func jpegMarkers(_ data: Data) -> [UInt8] {
        let bytes = [UInt8](data)
        var markers: [UInt8] = []
        var index = 2
        while index + 4 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            markers.append(marker)
            if marker == 0xDA { break }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return markers
    }
}

struct TestImageError: Error {
    let detail: String
}

@Suite("Card images: checked by content, re-encoded without metadata")
struct CardImageTests {
    @Test("a phone photo is turned upright, shrunk, and loses its EXIF data (GPS included)")
    func photo() async throws {
        guard Fixtures.requireTools(TestImages.vips) else { return }
        let photo = TestImages.withExif(
            try await TestImages.make(width: 3_000, height: 2_000, format: "jpg[Q=90]"), orientation: 6)
        #expect(PixelSize.read(photo, type: .jpeg) == PixelSize(width: 3_000, height: 2_000))
        #expect(TestImages.jpegMarkers(photo).contains(0xE1))
        let image = try await CardImageProcessor.process(photo)
        #expect(image.type == .jpeg)
        // Orientation 6 means "turn 90° clockwise": the stored picture is upright, so portrait.
        #expect(image.size == PixelSize(width: 1_067, height: 1_600))
        #expect(PixelSize.read(image.data, type: .jpeg) == image.size)
        let markers = TestImages.jpegMarkers(image.data)
        #expect(!markers.contains(0xE1) && !markers.contains(0xED) && !markers.contains(0xE2), "\(markers)")
        #expect(image.data.range(of: Data("Exif".utf8)) == nil)
        #expect(image.data.count < photo.count)
    }

    @Test("PNG stays PNG without its text chunks; GIF becomes PNG; WebP stays WebP; small stays small")
    func formats() async throws {
        guard Fixtures.requireTools(TestImages.vips) else { return }
        var png = [UInt8](try await TestImages.make(width: 40, height: 30, format: "png", bands: 4))
        // A tEXt chunk after IHDR (its CRC is not checked by readers that skip ancillary chunks).
        let text = Array("tEXt".utf8) + Array("Comment".utf8) + [0] + Array("geheime Notiz".utf8)
        let chunk = [0, 0, 0, UInt8(text.count - 4)] + text + [0, 0, 0, 0]
        png.insert(contentsOf: chunk, at: 33)
        let pngImage = try await CardImageProcessor.process(Data(png))
        #expect(pngImage.type == .png && pngImage.size == PixelSize(width: 40, height: 30))
        #expect(pngImage.data.range(of: Data("geheime Notiz".utf8)) == nil)

        let gif = try await CardImageProcessor.process(try await TestImages.make(width: 64, height: 48, format: "gif"))
        #expect(gif.type == .png && gif.size == PixelSize(width: 64, height: 48))

        // A photo as PNG (noise does not compress) is kept as JPEG; with transparency it stays PNG.
        let photoPNG = try await TestImages.make(width: 1_500, height: 1_200, format: "png")
        #expect(photoPNG.count > 4_000_000)
        let kept = try await CardImageProcessor.process(photoPNG)
        #expect(kept.type == .jpeg && kept.size == PixelSize(width: 1_500, height: 1_200))
        let transparent = try await CardImageProcessor.process(
            try await TestImages.make(width: 1_500, height: 1_200, format: "png", bands: 4))
        #expect(transparent.type == .png)

        let webp = try await CardImageProcessor.process(
            try await TestImages.make(width: 2_400, height: 600, format: "webp"))
        #expect(webp.type == .webp && webp.size == PixelSize(width: 1_600, height: 400))
    }

    @Test("what is refused, and why, before the converter runs where the header tells")
    func refusals() async throws {
        guard Fixtures.requireTools(TestImages.vips) else { return }
        func failure(_ data: Data) async -> ImageError? {
            do {
                _ = try await CardImageProcessor.process(data)
                return nil
            } catch {
                return error
            }
        }
        #expect(await failure(Data()) == .empty)
        #expect(await failure(Data("Hallo".utf8)) == .unsupportedType)
        #expect(await failure(Data("<svg onload=alert(1)></svg>".utf8)) == .unsupportedType)
        #expect(await failure(Data(count: CardImageProcessor.maximumBytes + 1)) == .tooLarge)
        // A PNG declaring 20,000 × 20,000 pixels: refused by its header alone.
        var bomb: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bomb += [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 2, 0, 0, 0]
        #expect(await failure(Data(bomb)) == .tooManyPixels)
        // A JPEG cut off after its header, and one whose header is broken.
        let jpeg = try await TestImages.make(width: 200, height: 100, format: "jpg")
        #expect(await failure(jpeg.prefix(600)) == .unreadable)
        #expect(await failure(Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00])) == .unreadable)
        #expect(ImageError.tooLarge.germanMessage == "Bilder dürfen höchstens 10 MB groß sein.")
    }

    @Test("sizes are read from every header without decoding")
    func headers() async throws {
        guard Fixtures.requireTools(TestImages.vips) else { return }
        for format in ["jpg", "png", "gif", "webp", "webp[lossless]"] {
            let data = try await TestImages.make(width: 123, height: 45, format: format)
            let type = try #require(ImageType.sniff(data), "\(format)")
            #expect(PixelSize.read(data, type: type) == PixelSize(width: 123, height: 45), "\(format)")
        }
    }
}
