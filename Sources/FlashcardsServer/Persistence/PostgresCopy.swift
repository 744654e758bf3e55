import FlashcardsCore
import FluentPostgresDriver
import Foundation
import NIOCore

/// Rows written with PostgreSQL's `COPY … FROM STDIN` in its text format: one statement for any
/// number of rows, the values sent as text PostgreSQL parses in bulk (through SQLKit every value is
/// encoded on its own, which was most of a large import's time).
enum PostgresCopy {
    /// Bytes sent per message.
    private static let chunk = 1 << 20

    /// Copies `rows` into `table` on `db`'s connection (in a transaction, the transaction's).
    static func run(into table: String, columns: [String], rows: [[StoredValue]], on db: any PostgresDatabase)
        async throws
    {
        try await db.withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                try await connection.copyFrom(table: table, columns: columns, logger: db.logger) { writer in
                    var buffer = ByteBufferAllocator().buffer(capacity: chunk + 4_096)
                    for row in rows {
                        for (index, value) in row.enumerated() {
                            if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
                            write(value, to: &buffer)
                        }
                        buffer.writeInteger(UInt8(ascii: "\n"))
                        if buffer.readableBytes >= chunk {
                            try await writer.write(buffer)
                            buffer.clear()
                        }
                    }
                    if buffer.readableBytes > 0 { try await writer.write(buffer) }
                }
            }
        }.get()
    }

    /// `value` in COPY's text format: `\N` for null, text with backslash, tab and line breaks escaped.
    static func write(_ value: StoredValue, to buffer: inout ByteBuffer) {
        switch value {
        case .null: buffer.writeStaticString("\\N")
        case .int(let value): buffer.writeString(String(value))
        case .double(let value):
            buffer.writeString(
                value.isFinite ? String(value) : value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity")
        case .bool(let value): buffer.writeStaticString(value ? "t" : "f")
        case .uuid(let value): buffer.writeString(value.uuidString)
        case .date(let value): writeTimestamp(value, to: &buffer)
        case .text(let text):
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
                case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
                case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
                default: buffer.writeInteger(byte)
                }
            }
        }
    }

    /// `date` as `YYYY-MM-DD HH:MM:SS.ffffff+00`, in whole microseconds as the driver's binary
    /// encoding truncates them, so both ways store the same instant.
    static func writeTimestamp(_ date: Date, to buffer: inout ByteBuffer) {
        let micros = Int64(date.timeIntervalSince(postgresEpoch) * 1_000_000)
        let perDay: Int64 = 86_400_000_000
        let (dayQuotient, dayRemainder) = micros.quotientAndRemainder(dividingBy: perDay)
        let days = dayRemainder < 0 ? dayQuotient - 1 : dayQuotient
        let ofDay = dayRemainder < 0 ? dayRemainder + perDay : dayRemainder
        let (year, month, day) = CivilDate.date(daysSince1970: Int(days + 10_957))
        let seconds = ofDay / 1_000_000
        func padded(_ value: some BinaryInteger, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        buffer.writeString(
            "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2)) \(padded(seconds / 3_600, 2)):"
                + "\(padded(seconds / 60 % 60, 2)):\(padded(seconds % 60, 2)).\(padded(ofDay % 1_000_000, 6))+00")
    }

    private static let postgresEpoch = Date(timeIntervalSince1970: 946_684_800)
}
