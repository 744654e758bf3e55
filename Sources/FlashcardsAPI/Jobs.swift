import Foundation

/// A background job as the API shows it (`GET /api/v1/jobs/{id}`, and each Server-Sent Event of
/// `GET /api/v1/jobs/{id}/events`).
public struct JobDTO: Codable, Sendable, Hashable {
    /// Stable id.
    @LowercaseUUID public var id: UUID
    /// `generation`, `hint`, `optimize` or `import`.
    public var kind: String
    /// `queued`, `running`, `succeeded`, `failed` or `cancelled`.
    public var status: String
    /// What the job is doing now.
    public var progress: JobProgressDTO
    /// The job's output when it succeeded (shape depends on `kind`), as JSON text; for a failed
    /// import, where it failed (`ImportProblemDTO`).
    @Nullable public var result: String?
    /// Why it failed, for the user (German).
    @Nullable public var error: String?
    /// Why it failed, for programs (`nothing_generated`, `no_text_found`, `job_cancelled`, …).
    @Nullable public var errorCode: String?
    /// When it was queued.
    public var createdAt: Date
    /// Last change.
    public var updatedAt: Date

    /// Creates the DTO.
    public init(
        id: UUID, kind: String, status: String, progress: JobProgressDTO, result: String?, error: String?,
        errorCode: String? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.status = status
        self.progress = progress
        self.result = result
        self.error = error
        self.errorCode = errorCode
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Progress of a job: a stage with counts and a ready-made German message.
public struct JobProgressDTO: Codable, Sendable, Hashable {
    /// `queued`, `reading`, `recognizing`, `generating`, `saving`, `done` (or a handler's own).
    public var stage: String
    /// Items done in this stage (pages, sections), if counted.
    @Nullable public var current: Int?
    /// Items in this stage, if known.
    @Nullable public var total: Int?
    /// Cards (or drafts) made so far.
    public var cardsCreated: Int
    /// The German text to show, e.g. "Seite 12 von 80 gelesen".
    public var message: String

    /// Creates the progress.
    public init(stage: String, current: Int? = nil, total: Int? = nil, cardsCreated: Int = 0, message: String) {
        self.stage = stage
        self.current = current
        self.total = total
        self.cardsCreated = cardsCreated
        self.message = message
    }

    /// A job waiting for a worker.
    public static let queued = JobProgressDTO(stage: "queued", message: "In der Warteschlange …")
}

/// `POST /api/v1/stacks/{id}/generations` with a JSON body: pasted text or a topic.
public struct GenerationRequestDTO: Codable, Sendable, Hashable {
    /// Pasted text or Markdown to make cards from.
    public var text: String?
    /// A topic name (needs a configured language model).
    public var topic: String?
    /// The user's own instructions for the generator; may be empty.
    public var customInstructions: String?
    /// For a topic: the batch's level (1–20, default 1); each later batch goes deeper and never
    /// repeats a question made for the stack before.
    public var depth: Int?

    /// Creates the request.
    public init(text: String? = nil, topic: String? = nil, customInstructions: String? = nil, depth: Int? = nil) {
        self.text = text
        self.topic = topic
        self.customInstructions = customInstructions
        self.depth = depth
    }
}

/// A generated card waiting for review.
public struct DraftDTO: Codable, Sendable, Hashable {
    /// Stable id.
    @LowercaseUUID public var id: UUID
    /// The generation job that made it.
    @LowercaseUUID public var jobId: UUID
    /// Front side.
    public var question: String
    /// Back side.
    public var answer: String
    /// The page of the source it came from, when known.
    @Nullable public var sourcePage: Int?
    /// `definition`, `list`, `enumeration`, `fact`, `cloze` or `model`.
    public var kind: String
    /// `pending`, `accepted` or `discarded`.
    public var status: String
    /// The sentence (or heading with its list) of the source the draft was made from, when known.
    @Nullable public var source: String?
    /// The same fact as another kind of card, for the user to switch to.
    @Nullable public var alternative: DraftAlternativeDTO?
    /// The question of a card already in the stack that asks the same, when there is one.
    @Nullable public var duplicateOf: String?
    /// The kind of card accepting it makes: the model's (multiple choice, true/false, …), else
    /// `fillBlank` for a sentence with a blank, otherwise `basic`.
    @WrittenWithDefault public var cardKind: CardKind?
    /// A multiple-choice draft's wrong options.
    @Nullable public var choices: [String]?

    /// Creates the DTO.
    public init(
        id: UUID, jobId: UUID, question: String, answer: String, sourcePage: Int?, kind: String, status: String,
        source: String? = nil, alternative: DraftAlternativeDTO? = nil, duplicateOf: String? = nil,
        cardKind: CardKind? = nil, choices: [String]? = nil
    ) {
        self.choices = choices
        self.cardKind = cardKind
        self.id = id
        self.jobId = jobId
        self.question = question
        self.answer = answer
        self.sourcePage = sourcePage
        self.kind = kind
        self.status = status
        self.source = source
        self.alternative = alternative
        self.duplicateOf = duplicateOf
    }
}

/// Another card of the same fact as a draft (a definition as a cloze, a question as a cloze).
public struct DraftAlternativeDTO: Codable, Sendable, Hashable {
    /// Front side.
    public var question: String
    /// Back side.
    public var answer: String
    /// Its kind, as `DraftDTO.kind`.
    public var kind: String

    /// Creates the DTO.
    public init(question: String, answer: String, kind: String) {
        self.question = question
        self.answer = answer
        self.kind = kind
    }
}

/// `GET /api/v1/generation`: how this server makes cards, so that a client words its page honestly
/// and offers topics only when they can work.
public struct GenerationInfoDTO: Codable, Sendable, Hashable {
    /// `offline` (the built-in rules) or `model` (a configured language model).
    public var generator: String
    /// The model's name when a model is used.
    @Nullable public var model: String?
    /// Whether cards can be made from a topic alone (needs a model).
    public var topics: Bool
    /// The largest upload in bytes.
    public var maxUploadBytes: Int
    /// Drafts per topic batch.
    public var topicBatchSize: Int

    /// Creates the DTO.
    public init(generator: String, model: String?, topics: Bool, maxUploadBytes: Int, topicBatchSize: Int) {
        self.generator = generator
        self.model = model
        self.topics = topics
        self.maxUploadBytes = maxUploadBytes
        self.topicBatchSize = topicBatchSize
    }
}

/// `PATCH /api/v1/stacks/{id}/drafts/{draftId}`.
public struct UpdateDraftRequest: Codable, Sendable, Hashable {
    /// New front side.
    public var question: String?
    /// New back side.
    public var answer: String?

    /// Creates the request.
    public init(question: String? = nil, answer: String? = nil) {
        self.question = question
        self.answer = answer
    }
}

/// `POST /api/v1/stacks/{id}/drafts/suggestion`: a passage of a source the learner chose.
public struct DraftSuggestionRequest: Codable, Sendable, Hashable {
    /// The chosen text (1–4,000 characters).
    public var passage: String
    /// The generation whose source it is from, whose language the rules then use.
    public var jobId: UUID?

    /// Creates the request.
    public init(passage: String, jobId: UUID? = nil) {
        self.passage = passage
        self.jobId = jobId
    }
}

/// The rules' card for a passage, for the learner to edit before it becomes a draft.
public struct DraftSuggestionDTO: Codable, Sendable, Hashable {
    /// Front side; empty when the rules found no card (`kind` `manual`).
    public var question: String
    /// Back side: the rules' answer, or the passage itself.
    public var answer: String
    /// As `DraftDTO.kind`; `manual` when the learner has to write the question.
    public var kind: String
    /// The kind of card accepting it makes.
    public var cardKind: CardKind

    /// Creates the DTO.
    public init(question: String, answer: String, kind: String, cardKind: CardKind) {
        self.question = question
        self.answer = answer
        self.kind = kind
        self.cardKind = cardKind
    }
}

/// `POST /api/v1/stacks/{id}/drafts`: a draft the learner wrote, usually from a passage of a job's source.
public struct CreateDraftRequest: Codable, Sendable, Hashable {
    /// The generation whose drafts it joins (required: every draft belongs to one).
    public var jobId: UUID?
    /// Front side.
    public var question: String
    /// Back side.
    public var answer: String
    /// The passage it was made from, which the source view then marks.
    public var source: String?
    /// The page of the passage.
    public var sourcePage: Int?
    /// As `DraftDTO.kind`; `manual` when absent.
    public var kind: String?

    /// Creates the request.
    public init(
        jobId: UUID? = nil, question: String, answer: String, source: String? = nil, sourcePage: Int? = nil,
        kind: String? = nil
    ) {
        self.jobId = jobId
        self.question = question
        self.answer = answer
        self.source = source
        self.sourcePage = sourcePage
        self.kind = kind
    }
}

/// `GET /api/v1/stacks/{id}/generations/{jobId}/source`: the source of a generation as the rules
/// read it, in sections, each sentence marked with the drafts made from it.
public struct GenerationSourceDTO: Codable, Sendable, Hashable {
    /// One sentence (a heading or a bullet item is one).
    public struct Sentence: Codable, Sendable, Hashable {
        /// Its text.
        public var text: String
        /// Whether a pending or accepted draft of the job came from it.
        public var covered: Bool
        /// The pending drafts made from it (lower-case ids), to jump to in the review list.
        public var draftIds: [String]

        /// Creates the DTO.
        public init(text: String, covered: Bool, draftIds: [String]) {
            self.text = text
            self.covered = covered
            self.draftIds = draftIds
        }
    }

    /// A heading, a paragraph or a bullet item.
    public struct Block: Codable, Sendable, Hashable {
        /// `heading`, `paragraph` or `bullet`.
        public var kind: String
        /// The page it starts on.
        public var page: Int
        /// Whether a draft came from any of its sentences.
        public var covered: Bool
        /// Its sentences.
        public var sentences: [Sentence]

        /// Creates the DTO.
        public init(kind: String, page: Int, covered: Bool, sentences: [Sentence]) {
            self.kind = kind
            self.page = page
            self.covered = covered
            self.sentences = sentences
        }
    }

    /// The text under one heading, or before the first.
    public struct Section: Codable, Sendable, Hashable {
        /// The heading; null for the text before the first one.
        @Nullable public var title: String?
        /// Whether a draft came from any of its blocks.
        public var covered: Bool
        /// Its blocks.
        public var blocks: [Block]

        /// Creates the DTO.
        public init(title: String?, covered: Bool, blocks: [Block]) {
            self.title = title
            self.covered = covered
            self.blocks = blocks
        }
    }

    /// The generation.
    @LowercaseUUID public var jobId: UUID
    /// `pdf`, `image` or `text`.
    public var origin: String
    /// `de` or `en`.
    public var language: String
    /// The sections in reading order.
    public var sections: [Section]
    /// The titles (or first words) of the sections with running text and no draft.
    public var sectionsWithoutDrafts: [String]

    /// Creates the DTO.
    public init(jobId: UUID, origin: String, language: String, sections: [Section], sectionsWithoutDrafts: [String]) {
        self.jobId = jobId
        self.origin = origin
        self.language = language
        self.sections = sections
        self.sectionsWithoutDrafts = sectionsWithoutDrafts
    }
}

/// `POST /api/v1/stacks/{id}/drafts/accept`: accepts the given drafts, or all pending ones (of a job).
public struct AcceptDraftsRequest: Codable, Sendable, Hashable {
    /// The drafts to accept; all pending drafts (of `jobId`, if given) when absent.
    public var ids: [UUID]?
    /// Limits "all" to one generation.
    public var jobId: UUID?

    /// Creates the request.
    public init(ids: [UUID]? = nil, jobId: UUID? = nil) {
        self.ids = ids
        self.jobId = jobId
    }
}

/// The answer to accepting drafts: the cards made.
public struct AcceptDraftsResponse: Codable, Sendable, Hashable {
    /// How many cards were created.
    public var accepted: Int

    /// Creates the response.
    public init(accepted: Int) { self.accepted = accepted }
}
