import FlashcardsAPI
import Foundation

// Import, export and background jobs (`docs/import.md`).
extension FlashcardsClient {
    /// The job with this id (its status, progress and result).
    public func job(_ id: UUID) async throws -> JobDTO {
        try await transport.send(JobDTO.self, Endpoint.V1.job, id.path)
    }

    /// Asks the server to stop the job; answers the job as it stands then.
    @discardableResult
    public func cancelJob(_ id: UUID) async throws -> JobDTO {
        try await transport.send(JobDTO.self, Endpoint.V1.cancelJob, id.path)
    }

    /// Polls the job every `interval` seconds until it has finished (succeeded, failed or
    /// cancelled); `progress` sees each state on the way.
    public func waitForJob(
        _ id: UUID, interval: TimeInterval = 0.5, progress: (@Sendable (JobDTO) -> Void)? = nil
    ) async throws -> JobDTO {
        while true {
            let job = try await self.job(id)
            progress?(job)
            if ["succeeded", "failed", "cancelled"].contains(job.status) { return job }
            try await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
        }
    }

    /// What `file` would import: how it was read, the first rows, the cards and any problems.
    /// Nothing is written.
    public func previewImport(_ file: Data, fileName: String, options: ImportOptionsDTO = .init()) async throws
        -> ImportPreviewDTO
    {
        try await transport.send(
            ImportPreviewDTO.self, Endpoint.V1.previewImport, body: try Self.importBody(file, fileName, options))
    }

    /// Queues the import of `file`; follow the returned job with ``waitForJob(_:interval:progress:)``.
    public func startImport(_ file: Data, fileName: String, options: ImportOptionsDTO = .init()) async throws
        -> JobDTO
    {
        try await transport.send(
            JobDTO.self, Endpoint.V1.startImport, body: try Self.importBody(file, fileName, options))
    }

    /// The whole account as a backup document (`BackupDocumentDTO`): JSON, or zipped when `zipped`.
    /// Restore it with ``restoreAccount(_:fileName:progress:)``.
    public func backup(zipped: Bool = false) async throws -> Data {
        try await transport.send(
            Endpoint.V1.backup, query: [URLQueryItem(name: "format", value: zipped ? "zip" : "json")])
    }

    /// Restores a backup (JSON or zipped) into this account, which must have no stacks yet, and
    /// waits for it: stacks, cards, review log, settings and progress as they were.
    public func restoreAccount(
        _ file: Data, fileName: String = "backup.json", progress: (@Sendable (JobDTO) -> Void)? = nil
    ) async throws -> ImportResultDTO {
        let started = try await transport.send(
            JobDTO.self, Endpoint.V1.restore, body: try Self.importBody(file, fileName, .init()))
        return try await finishedImport(started, progress: progress)
    }

    /// Imports `file` and waits for it: the stacks filled, or ``FlashcardsError/importRefused(_:)``
    /// saying which line or note broke which rule (then nothing was imported).
    public func importFile(
        _ file: Data, fileName: String, options: ImportOptionsDTO = .init(),
        progress: (@Sendable (JobDTO) -> Void)? = nil
    ) async throws -> ImportResultDTO {
        try await finishedImport(
            try await startImport(file, fileName: fileName, options: options), progress: progress)
    }

    /// Waits for an import job and reads its result, or throws why it was refused.
    private func finishedImport(_ started: JobDTO, progress: (@Sendable (JobDTO) -> Void)?) async throws
        -> ImportResultDTO
    {
        let job = try await waitForJob(started.id, progress: progress)
        let decoder = FlashcardsJSON.makeDecoder()
        guard job.status == "succeeded" else {
            if let text = job.result, let problem = try? decoder.decode(ImportProblemDTO.self, from: Data(text.utf8)) {
                throw FlashcardsError.importRefused(problem)
            }
            throw FlashcardsError.jobFailed(code: job.errorCode, message: job.error)
        }
        do {
            return try decoder.decode(ImportResultDTO.self, from: Data((job.result ?? "").utf8))
        } catch {
            throw FlashcardsError.decoding("ImportResultDTO: \(error)")
        }
    }

    /// The stack as a file in `format` (CSV with a header for spreadsheets, TSV for Quizlet and Anki).
    public func exportStack(_ id: UUID, format: ExportFormat = .csv) async throws -> Data {
        try await transport.send(
            Endpoint.V1.exportStack, id.path, query: [URLQueryItem(name: "format", value: format.rawValue)])
    }

    private static func importBody(_ file: Data, _ fileName: String, _ options: ImportOptionsDTO) throws
        -> Transport.Body
    {
        let options = String(decoding: try FlashcardsJSON.makeEncoder().encode(options), as: UTF8.self)
        return .multipart(file: file, fileField: "file", fileName: fileName, fields: ["options": options])
    }
}
