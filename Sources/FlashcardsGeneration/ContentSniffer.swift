import Foundation

/// The kinds of material the generators accept, told apart by content, never by file name.
public enum ContentType: String, Sendable, Codable, Hashable {
    /// A PDF document.
    case pdf
    /// A PNG image (photo or scan).
    case png
    /// A JPEG image (photo or scan).
    case jpeg
    /// UTF-8 text or Markdown.
    case text

    /// Whether the content needs text recognition.
    public var isImage: Bool { self == .png || self == .jpeg }
}

/// Recognises the content type from the first bytes.
public enum ContentSniffer {
    /// The type of `data`; throws `.emptyFile` or `.unsupportedType`.
    public static func sniff(_ data: Data) throws(GenerationError) -> ContentType {
        guard !data.isEmpty else { throw .emptyFile }
        // Photos are told apart as card images are; GIF and WebP are not read by the OCR.
        switch ImageType.sniff(data) {
        case .png: return .png
        case .jpeg: return .jpeg
        case .gif, .webp, nil: break
        }
        let head = [UInt8](data.prefix(1024))
        // "%PDF-" may follow a little junk; readers accept it within the first kilobyte.
        let marker: [UInt8] = Array("%PDF-".utf8)
        if head.count >= marker.count {
            for start in 0...(head.count - marker.count)
            where head[start..<(start + marker.count)].elementsEqual(marker) {
                return .pdf
            }
        }
        if isText(data) {
            let text = String(decoding: data, as: UTF8.self)
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw .emptyFile }
            return .text
        }
        throw .unsupportedType
    }

    /// Valid UTF-8 without NUL bytes and with few control characters.
    static func isText(_ data: Data) -> Bool {
        guard String(data: data, encoding: .utf8) != nil else { return false }
        var controls = 0
        for byte in data {
            if byte == 0 { return false }
            if byte < 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 && byte != 0x0C { controls += 1 }
        }
        return controls * 100 <= max(data.count, 1)
    }
}
