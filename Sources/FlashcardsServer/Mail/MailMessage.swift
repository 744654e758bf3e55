import Foundation

/// A plain-text mail, rendered as an RFC 5322 message: UTF-8 subject and display names as RFC 2047
/// encoded words, the body as quoted-printable UTF-8 (7-bit clean, so any server relays it), CRLF
/// line ends throughout. Dot-stuffing belongs to the SMTP transfer (`SMTPClient`), not to the message.
struct MailMessage: Sendable, Equatable {
    var from: MailAddress
    var to: MailAddress
    var subject: String
    /// The text, with `\n` or `\r\n` line ends.
    var body: String
    var date: Date
    /// Unique per message; `<id@sender-domain>` in the header.
    var messageID: String

    /// The whole message, headers and body, ready for `DATA`.
    var rendered: String {
        var headers = [
            "Date: " + Self.rfc5322Date(date),
            "From: " + Self.header(from),
            "To: " + Self.header(to),
            "Subject: " + MIMEEncoding.encodedWords(subject, prefixLength: "Subject: ".count),
            "Message-ID: <\(messageID)@\(from.domain)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
        ]
        headers.append("Auto-Submitted: auto-generated")
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + MIMEEncoding.quotedPrintable(body)
    }

    /// `"Name" <address>`, the name as encoded words when it is not plain ASCII.
    private static func header(_ address: MailAddress) -> String {
        guard let name = address.name else { return address.address }
        let plain = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || " .-_'".contains($0)) }
        let shown = plain ? "\"\(name)\"" : MIMEEncoding.encodedWords(name, prefixLength: 6)
        return "\(shown) <\(address.address)>"
    }

    /// `Sat, 13 Jun 2026 10:00:00 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}

/// The MIME encodings a plain-text mail needs.
enum MIMEEncoding {
    /// `text` as it can stand in a header: unchanged when it is printable ASCII, otherwise as
    /// `=?UTF-8?B?…?=` words of at most 75 characters each (RFC 2047), split between characters,
    /// never inside one, and folded onto continuation lines so no line exceeds 76 characters.
    static func encodedWords(_ text: String, prefixLength: Int = 0) -> String {
        let printable = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
        if printable, prefixLength + text.count <= 76, !text.contains("=?") { return text }
        // 45 bytes of UTF-8 become 60 base64 characters: with `=?UTF-8?B?` and `?=` a word of 72.
        // The first word shares its line with the field name, so it holds less.
        var words: [String] = []
        var chunk: [UInt8] = []
        var limit = max(3, (76 - prefixLength - 12) / 4 * 3)
        func flush() {
            guard !chunk.isEmpty else { return }
            words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
            chunk = []
            limit = 45
        }
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > limit { flush() }
            chunk.append(contentsOf: bytes)
        }
        flush()
        return words.joined(separator: "\r\n ")
    }

    /// `text` as quoted-printable (RFC 2045 6.7) with CRLF line ends: printable ASCII but `=` as
    /// it is, every other byte as `=XX`, a space or tab before a line end encoded, and soft line
    /// breaks (`=` at the end) keeping every line at 76 characters at most.
    static func quotedPrintable(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let hex = Array("0123456789ABCDEF")
        var lines: [String] = []
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            let bytes = Array(line.utf8)
            var tokens: [String] = []
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal =
                    (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
                    || ((byte == 0x20 || byte == 0x09) && !isLast)
                tokens.append(
                    literal
                        ? String(UnicodeScalar(byte)) : "=" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
                )
            }
            var current = ""
            for token in tokens {
                // 75 characters and the soft break's `=` make 76.
                if current.count + token.count > 75 {
                    lines.append(current + "=")
                    current = ""
                }
                current += token
            }
            lines.append(current)
        }
        return lines.joined(separator: "\r\n")
    }
}
