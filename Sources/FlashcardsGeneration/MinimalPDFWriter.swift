import Foundation

/// Writes simple text-only PDFs (Helvetica, WinAnsi encoding) without any library, so that the
/// benchmark and the tests can build large documents deterministically on any machine.
public enum MinimalPDFWriter {
    /// A PDF with one page per element of `pages`, each a list of lines set from the top left.
    public static func document(pages: [[String]], fontSize: Int = 10) -> Data {
        var output = Data()
        var offsets: [Int] = []
        func append(_ text: String) { output.append(contentsOf: Array(text.utf8)) }
        func object(_ number: Int, _ body: Data) {
            offsets.append(output.count)
            append("\(number) 0 obj\n")
            output.append(body)
            append("\nendobj\n")
        }
        append("%PDF-1.4\n%\u{00E2}\u{00E3}\n")
        let pageCount = pages.count
        let kids = (0..<pageCount).map { "\(4 + 2 * $0) 0 R" }.joined(separator: " ")
        object(1, Data("<< /Type /Catalog /Pages 2 0 R >>".utf8))
        object(2, Data("<< /Type /Pages /Kids [\(kids)] /Count \(pageCount) >>".utf8))
        object(3, Data("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".utf8))
        let leading = fontSize + fontSize / 5 + 1
        for (index, lines) in pages.enumerated() {
            let pageNumber = 4 + 2 * index
            object(
                pageNumber,
                Data(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents \(pageNumber + 1) 0 R >>"
                        .utf8))
            var stream = Data("BT /F1 \(fontSize) Tf \(leading) TL 56 800 Td\n".utf8)
            for line in lines {
                stream.append(UInt8(ascii: "("))
                stream.append(encode(line))
                stream.append(contentsOf: Array(") Tj T*\n".utf8))
            }
            stream.append(contentsOf: Array("ET".utf8))
            var body = Data("<< /Length \(stream.count) >>\nstream\n".utf8)
            body.append(stream)
            body.append(contentsOf: Array("\nendstream".utf8))
            object(pageNumber + 1, body)
        }
        let xref = output.count
        append("xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n")
        for offset in offsets { append(String(format: "%010d 00000 n \n", offset)) }
        append("trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n")
        return output
    }

    /// WinAnsi bytes for a line, with PDF string escapes; unknown characters become "?".
    static func encode(_ text: String) -> Data {
        let special: [UnicodeScalar: UInt8] = [
            "€": 0x80, "‚": 0x82, "„": 0x84, "…": 0x85, "‘": 0x91, "’": 0x92, "“": 0x93, "”": 0x94, "•": 0x95,
            "–": 0x96, "—": 0x97,
        ]
        var bytes = Data()
        for scalar in text.unicodeScalars {
            let byte: UInt8
            if let mapped = special[scalar] {
                byte = mapped
            } else if scalar.value >= 0x20 && scalar.value < 0x7F || (scalar.value >= 0xA0 && scalar.value <= 0xFF) {
                byte = UInt8(scalar.value)
            } else {
                byte = UInt8(ascii: "?")
            }
            if byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "\\") {
                bytes.append(UInt8(ascii: "\\"))
            }
            bytes.append(byte)
        }
        return bytes
    }
}
