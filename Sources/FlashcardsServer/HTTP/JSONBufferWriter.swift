import FlashcardsAPI
import Foundation
import Vapor

/// JSON written straight into a response buffer, for the responses where `JSONEncoder` cost more
/// than the work behind them: the original API's stack documents (every card of a stack) and the
/// learning path's answers (`StudyRendering`). Callers write keys and punctuation as literals; the
/// output decodes to the same values the Codable types describe (tested against `JSONEncoder`).
struct JSONBufferWriter {
    var buffer = ByteBufferAllocator().buffer(capacity: 4_096)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    mutating func raw(_ text: StaticString) {
        buffer.writeStaticString(text)
    }

    mutating func int(_ value: Int) {
        buffer.writeString(String(value))
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest as UTF-8.
    mutating func string(_ value: String) {
        buffer.writeInteger(UInt8(ascii: "\""))
        var utf8 = value
        utf8.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                switch byte {
                case 0x22: buffer.writeStaticString("\\\"")
                case 0x5C: buffer.writeStaticString("\\\\")
                case 0x0A: buffer.writeStaticString("\\n")
                case 0x0D: buffer.writeStaticString("\\r")
                case 0x09: buffer.writeStaticString("\\t")
                default:
                    buffer.writeStaticString("\\u00")
                    buffer.writeInteger(Self.hexDigits[Int(byte >> 4)])
                    buffer.writeInteger(Self.hexDigits[Int(byte & 0x0F)])
                }
                start = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start...])))
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    /// A number as Swift writes it (the shortest text that reads back as the same double); `null`
    /// for a value JSON has no number for.
    mutating func double(_ value: Double) {
        if value.isFinite { buffer.writeString(value.description) } else { raw("null") }
    }

    /// A date in the shared format (`FlashcardsJSON.string(from:)`).
    mutating func date(_ value: Date) {
        buffer.writeInteger(UInt8(ascii: "\""))
        buffer.writeString(FlashcardsJSON.string(from: value))
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    /// `value` written by `write`, or `null`.
    mutating func optional<Value>(_ value: Value?, _ write: (inout Self, Value) -> Void) {
        if let value { write(&self, value) } else { raw("null") }
    }

    func response(status: HTTPResponseStatus = .ok) -> Response {
        let response = Response(status: status)
        response.headers.contentType = .json
        response.body = .init(buffer: buffer)
        return response
    }
}
