import Fluent
import Foundation

/// A background job row. Status moves queued → running → succeeded | failed | cancelled; a
/// running job holds a lease (`lockedBy`, `lockedUntil`) that its worker renews with every
/// progress report, so a job whose instance died is claimed again once the lease has run out.
final class JobModel: Model, @unchecked Sendable {
    static let schema = "jobs"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userId: UUID
    @Field(key: "kind") var kind: String
    @Field(key: "status") var status: String
    /// The handler's input, as JSON.
    @Field(key: "payload") var payload: String
    /// The latest ``JobProgress``, as JSON.
    @Field(key: "progress") var progress: String
    /// The handler's output, as JSON.
    @OptionalField(key: "result") var result: String?
    /// A message for the user when the job failed.
    @OptionalField(key: "error") var error: String?
    /// A stable code for the failure (e.g. `encrypted_pdf`), `user:`-prefixed when the user's input is at fault.
    @OptionalField(key: "error_code") var errorCode: String?
    @Field(key: "attempts") var attempts: Int
    @Field(key: "cancel_requested") var cancelRequested: Bool
    @OptionalField(key: "locked_by") var lockedBy: String?
    @OptionalField(key: "locked_until") var lockedUntil: Date?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    @OptionalField(key: "finished_at") var finishedAt: Date?

    init() {}
}

/// The uploaded bytes a job works on.
final class JobInputModel: Model, @unchecked Sendable {
    static let schema = "job_inputs"

    @ID(custom: "job_id", generatedBy: .user) var id: UUID?
    @Field(key: "data") var data: Data

    init() {}

    init(jobId: UUID, data: Data) {
        self.id = jobId
        self.data = data
    }
}

/// Where a job stands.
enum JobStatus: String, Codable, Sendable {
    case queued, running, succeeded, failed, cancelled

    var isFinished: Bool { self == .succeeded || self == .failed || self == .cancelled }
}

extension JobModel {
    /// The job's status; an unknown stored value is `UnknownStoredValue`.
    var jobStatus: JobStatus {
        get throws { try storedValue(JobStatus.self, status, column: "jobs.status") }
    }
}
