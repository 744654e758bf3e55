import Foundation
import Vapor

/// A multipart/form-data upload: one file and its text fields, read while the body streams in.
struct MultipartForm {
    /// The file's bytes.
    let file: Data
    /// The file name the browser sent, if any (never used as a path).
    let fileName: String?
    private let parts: [MultipartPart]

    /// The text of field `name`, if sent.
    func text(_ name: String) -> String? {
        parts.first { $0.name == name }.map { String(buffer: $0.body) }
    }

    /// Reads the form; 413 as soon as the body passes `maximumFile` (plus the framing), 400 when
    /// it is no multipart form or has no file in `fileField`.
    static func read(_ req: Request, fileField: String = "file", maximumFile: Int) async throws -> MultipartForm {
        guard let boundary = req.headers.contentType?.parameters["boundary"],
            req.headers.contentType?.type == "multipart"
        else {
            throw AppError.validation("Bitte lade eine Datei als multipart/form-data im Feld '\(fileField)' hoch.")
        }
        let tooLarge = AppError.uploadTooLarge(megabytes: maximumFile / (1_024 * 1_024))
        // Multipart framing adds a little to the file; the file itself is checked exactly below.
        let collected = try await req.collectBody(limit: maximumFile + 256 * 1_024, tooLarge: tooLarge)
        // A form without any part (no file chosen) is not valid multipart to the parser; say what is missing.
        let parts = (try? parse(collected, boundary: boundary)) ?? []
        if parts.isEmpty, String(buffer: collected).contains("name=\"\(fileField)\"") {
            throw AppError.validation("Der Upload ist kein gültiges multipart/form-data.")
        }
        guard let file = parts.first(where: { $0.name == fileField }) else {
            throw AppError.validation("Bitte wähle eine Datei aus, bevor du fortfährst.")
        }
        guard file.body.readableBytes > 0 else { throw AppError.validation("Die Datei ist leer.") }
        guard file.body.readableBytes <= maximumFile else { throw tooLarge }
        return MultipartForm(file: Data(file.body.readableBytesView), fileName: file.filename, parts: parts)
    }

    /// Splits a multipart body into its parts.
    private static func parse(_ buffer: ByteBuffer, boundary: String) throws -> [MultipartPart] {
        let parser = MultipartParser(boundary: boundary)
        var parts: [MultipartPart] = []
        var headers = HTTPHeaders()
        var body = ByteBuffer()
        parser.onHeader = { name, value in headers.add(name: name, value: value) }
        parser.onBody = { chunk in body.writeBuffer(&chunk) }
        parser.onPartComplete = {
            parts.append(MultipartPart(headers: headers, body: body))
            headers = HTTPHeaders()
            body = ByteBuffer()
        }
        try parser.execute(buffer)
        return parts
    }
}
