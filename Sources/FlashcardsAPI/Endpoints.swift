/// One HTTP endpoint of the server: a method and a path template, declared once here so the
/// server routes it, the SDK calls it and a test holds both to `Public/openapi.json`.
///
/// The template is written relative to its ``Family``'s base (`stacks/:stackId/study/next` below
/// `/api/v1`), with `:name` for a parameter; the names are the ones the server's handlers read.
///
/// ```swift
/// Endpoint.V1.studyNext.template        // "/api/v1/stacks/{stackId}/study/next"
/// Endpoint.V1.studyNext.path(stackId)   // "api/v1/stacks/<stackId>/study/next"
/// ```
public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// An HTTP method an endpoint answers.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        /// `GET`
        case get = "GET"
        /// `POST`
        case post = "POST"
        /// `PUT`
        case put = "PUT"
        /// `PATCH`
        case patch = "PATCH"
        /// `DELETE`
        case delete = "DELETE"
    }

    /// Where a group of endpoints is mounted: the server registers each family's routes below
    /// its base, so templates are written relative to it.
    public enum Family: Sendable, Hashable, CaseIterable {
        /// The original API, at the root (`/signup`, `/stack/{stackId}`, …).
        case compat
        /// The primary API, below `/api/v1`.
        case v1

        /// The base's path segments (`[]` or `["api", "v1"]`).
        public var base: [String] {
            switch self {
            case .compat: []
            case .v1: ["api", "v1"]
            }
        }
    }

    /// One segment of a path template.
    public enum Segment: Sendable, Hashable {
        /// A literal segment, such as `stacks`.
        case constant(String)
        /// A parameter filled in per request, such as `stackId`.
        case parameter(String)
    }

    /// The HTTP method.
    public let method: Method
    /// The family, and so the base path the template is relative to.
    public let family: Family
    /// The path below the family's base, as the server registers it.
    public let segments: [Segment]

    /// Declares an endpoint from a template such as `stacks/:stackId/cards` (no leading slash).
    init(_ method: Method, _ family: Family, _ template: String) {
        self.method = method
        self.family = family
        self.segments = template.split(separator: "/").map { part in
            part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .constant(String(part))
        }
    }

    /// The parameters' names, in path order (`["stackId", "cardId"]`).
    public var parameterNames: [String] {
        segments.compactMap { segment in
            if case .parameter(let name) = segment { name } else { nil }
        }
    }

    /// The full path as an OpenAPI template, with a leading slash: `/api/v1/stacks/{stackId}`.
    public var template: String {
        let parts =
            family.base
            + segments.map { segment in
                switch segment {
                case .constant(let text): text
                case .parameter(let name): "{\(name)}"
                }
            }
        return "/" + parts.joined(separator: "/")
    }

    /// `GET /api/v1/stacks/{stackId}`, as OpenAPI documents and test failures name an operation.
    public var description: String { "\(method.rawValue) \(template)" }

    /// The concrete path with `values` filled in for the parameters in order, relative to the
    /// server root and without a leading slash (`api/v1/stacks/<id>/study/next`), as
    /// `URL.appendingPathComponent` takes it. Values go in as they are (the URL percent-encodes
    /// them); passing a different number of values than ``parameterNames`` is a programming error.
    public func path(_ values: String...) -> String { path(values) }

    /// ``path(_:)-(String...)`` with the values as an array.
    public func path(_ values: [String]) -> String {
        precondition(
            values.count == parameterNames.count,
            "\(self) takes \(parameterNames.count) path parameter(s), got \(values.count)")
        var remaining = values[...]
        let parts =
            family.base
            + segments.map { segment in
                switch segment {
                case .constant(let text): text
                case .parameter: remaining.removeFirst()
                }
            }
        return parts.joined(separator: "/")
    }

    /// Every endpoint of both families; the route test expects exactly these to be routed and
    /// documented, so a declaration missing here fails it.
    public static let all: [Endpoint] = Compat.all + V1.all
}

extension Endpoint {
    /// The original API at the root, exactly its original paths (`docs/api.md`).
    public enum Compat {
        /// `POST /signup`
        public static let signup = Endpoint(.post, .compat, "signup")
        /// `POST /login`
        public static let login = Endpoint(.post, .compat, "login")
        /// `GET /stack`: every stack with its cards.
        public static let listStacks = Endpoint(.get, .compat, "stack")
        /// `POST /stack`
        public static let createStack = Endpoint(.post, .compat, "stack")
        /// `GET /stack/{stackId}`
        public static let showStack = Endpoint(.get, .compat, "stack/:stackId")
        /// `DELETE /stack/{stackId}`
        public static let deleteStack = Endpoint(.delete, .compat, "stack/:stackId")
        /// `POST /card` (the stack id is in the body).
        public static let createCard = Endpoint(.post, .compat, "card")
        /// `GET /stack/{stackId}/card/next`. The constant `next` wins over ``showCard``'s `{cardId}`
        /// in the server's router, whatever the order of registration.
        public static let nextCard = Endpoint(.get, .compat, "stack/:stackId/card/next")
        /// `GET /stack/{stackId}/card/{cardId}`
        public static let showCard = Endpoint(.get, .compat, "stack/:stackId/card/:cardId")
        /// `PUT /stack/{stackId}/card/{cardId}`
        public static let updateCard = Endpoint(.put, .compat, "stack/:stackId/card/:cardId")
        /// `DELETE /stack/{stackId}/card/{cardId}`
        public static let deleteCard = Endpoint(.delete, .compat, "stack/:stackId/card/:cardId")
        /// `POST /stack/rating` (stack and card ids are in the body).
        public static let rate = Endpoint(.post, .compat, "stack/rating")
        /// `POST /stack/{stackId}/createFromFile`: cards from an uploaded PDF, in the request.
        public static let createFromFile = Endpoint(.post, .compat, "stack/:stackId/createFromFile")

        /// Every endpoint of the original API.
        public static let all: [Endpoint] = [
            signup, login, listStacks, createStack, showStack, deleteStack, createCard, nextCard, showCard,
            updateCard, deleteCard, rate, createFromFile,
        ]
    }

    /// The primary API below `/api/v1`.
    public enum V1 {
        // MARK: Service

        /// `GET /api/v1/health`
        public static let health = Endpoint(.get, .v1, "health")
        /// `GET /api/v1/ready`: 200 when the database answers and is migrated, else 503.
        public static let ready = Endpoint(.get, .v1, "ready")
        /// `GET /api/v1/openapi.json`: the OpenAPI document.
        public static let openAPIDocument = Endpoint(.get, .v1, "openapi.json")

        // MARK: Account

        /// `POST /api/v1/auth/signup`
        public static let signup = Endpoint(.post, .v1, "auth/signup")
        /// `POST /api/v1/auth/login`
        public static let login = Endpoint(.post, .v1, "auth/login")
        /// `GET /api/v1/auth/oidc/providers`: the OpenID Connect providers learners can sign in with.
        public static let oidcProviders = Endpoint(.get, .v1, "auth/oidc/providers")
        /// `GET /api/v1/auth/oidc/{provider}/start`: the browser goes to the provider (302).
        public static let oidcStart = Endpoint(.get, .v1, "auth/oidc/:provider/start")
        /// `GET /api/v1/auth/oidc/{provider}/callback`: the provider sends the browser back (302 to the web app).
        public static let oidcCallback = Endpoint(.get, .v1, "auth/oidc/:provider/callback")
        /// `POST /api/v1/auth/oidc/{provider}/callback`: the same, as `response_mode=form_post` (Apple).
        public static let oidcCallbackPost = Endpoint(.post, .v1, "auth/oidc/:provider/callback")
        /// `POST /api/v1/auth/oidc/session`: the web app exchanges the callback's one-time code for a session.
        public static let oidcSession = Endpoint(.post, .v1, "auth/oidc/session")
        /// `POST /api/v1/auth/oidc/link`: links the provider to the account of its address, with that account's password.
        public static let oidcLink = Endpoint(.post, .v1, "auth/oidc/link")
        /// `GET /api/v1/me/identities`: the providers linked to the account.
        public static let identities = Endpoint(.get, .v1, "me/identities")
        /// `DELETE /api/v1/me/identities/{provider}`: unlinks a provider (the account needs a password).
        public static let unlinkIdentity = Endpoint(.delete, .v1, "me/identities/:provider")
        /// `GET /api/v1/me`
        public static let me = Endpoint(.get, .v1, "me")
        /// `PATCH /api/v1/me`
        public static let updateMe = Endpoint(.patch, .v1, "me")
        /// `DELETE /api/v1/me`
        public static let deleteMe = Endpoint(.delete, .v1, "me")
        /// `POST /api/v1/me/password`
        public static let changePassword = Endpoint(.post, .v1, "me/password")
        /// `GET /api/v1/auth/password-reset`: whether this server can mail reset links.
        public static let passwordResetStatus = Endpoint(.get, .v1, "auth/password-reset")
        /// `POST /api/v1/auth/password-reset`: mail a reset link (the same 202 for every address).
        public static let requestPasswordReset = Endpoint(.post, .v1, "auth/password-reset")
        /// `POST /api/v1/auth/password-reset/confirm`: a new password with the mailed token.
        public static let confirmPasswordReset = Endpoint(.post, .v1, "auth/password-reset/confirm")

        // MARK: Stacks and cards

        /// `GET /api/v1/stacks`
        public static let listStacks = Endpoint(.get, .v1, "stacks")
        /// `POST /api/v1/stacks`
        public static let createStack = Endpoint(.post, .v1, "stacks")
        /// `GET /api/v1/stacks/{stackId}`
        public static let showStack = Endpoint(.get, .v1, "stacks/:stackId")
        /// `PATCH /api/v1/stacks/{stackId}`
        public static let updateStack = Endpoint(.patch, .v1, "stacks/:stackId")
        /// `DELETE /api/v1/stacks/{stackId}`
        public static let deleteStack = Endpoint(.delete, .v1, "stacks/:stackId")
        /// `GET /api/v1/stacks/{stackId}/cards`
        public static let listCards = Endpoint(.get, .v1, "stacks/:stackId/cards")
        /// `POST /api/v1/stacks/{stackId}/cards`
        public static let createCard = Endpoint(.post, .v1, "stacks/:stackId/cards")
        /// `GET /api/v1/stacks/{stackId}/cards/{cardId}`
        public static let showCard = Endpoint(.get, .v1, "stacks/:stackId/cards/:cardId")
        /// `PATCH /api/v1/stacks/{stackId}/cards/{cardId}`
        public static let updateCard = Endpoint(.patch, .v1, "stacks/:stackId/cards/:cardId")
        /// `DELETE /api/v1/stacks/{stackId}/cards/{cardId}`
        public static let deleteCard = Endpoint(.delete, .v1, "stacks/:stackId/cards/:cardId")
        /// `PUT /api/v1/stacks/{stackId}/cards/{cardId}/bookmark`: bookmarks the card.
        public static let bookmarkCard = Endpoint(.put, .v1, "stacks/:stackId/cards/:cardId/bookmark")
        /// `DELETE /api/v1/stacks/{stackId}/cards/{cardId}/bookmark`: removes the bookmark.
        public static let unbookmarkCard = Endpoint(.delete, .v1, "stacks/:stackId/cards/:cardId/bookmark")

        // MARK: Learning and reviews

        /// `GET /api/v1/stacks/{stackId}/study/next`
        public static let studyNext = Endpoint(.get, .v1, "stacks/:stackId/study/next")
        /// `POST /api/v1/stacks/{stackId}/study/rate`
        public static let studyRate = Endpoint(.post, .v1, "stacks/:stackId/study/rate")
        /// `GET /api/v1/stacks/{stackId}/study/quiz`: the next due card as a multiple-choice question.
        public static let studyQuiz = Endpoint(.get, .v1, "stacks/:stackId/study/quiz")
        /// `GET /api/v1/stacks/{stackId}/share`: the stack's read-only link, if it has one.
        public static let shareLink = Endpoint(.get, .v1, "stacks/:stackId/share")
        /// `POST /api/v1/stacks/{stackId}/share`: makes the link (or answers the one there is).
        public static let createShareLink = Endpoint(.post, .v1, "stacks/:stackId/share")
        /// `DELETE /api/v1/stacks/{stackId}/share`: revokes the link at once.
        public static let revokeShareLink = Endpoint(.delete, .v1, "stacks/:stackId/share")
        /// `GET /api/v1/shared/{token}`: a shared stack, for anyone with the link.
        public static let sharedStack = Endpoint(.get, .v1, "shared/:token")
        /// `POST /api/v1/shared/{token}/copy`: the caller's own copy of a shared stack.
        public static let copySharedStack = Endpoint(.post, .v1, "shared/:token/copy")
        /// `POST /api/v1/images` (multipart `file`, or the image as the body): stores a card image.
        public static let uploadImage = Endpoint(.post, .v1, "images")
        /// `GET /api/v1/images/{imageId}[?share=<token>]`: an image, to whoever may see a card showing it.
        public static let image = Endpoint(.get, .v1, "images/:imageId")
        /// `GET /api/v1/stacks/{stackId}/publication`: the stack's catalogue entry, if published.
        public static let publication = Endpoint(.get, .v1, "stacks/:stackId/publication")
        /// `PUT /api/v1/stacks/{stackId}/publication`: publishes the stack (or changes category and language).
        public static let publish = Endpoint(.put, .v1, "stacks/:stackId/publication")
        /// `DELETE /api/v1/stacks/{stackId}/publication`: takes the stack out of the catalogue.
        public static let unpublish = Endpoint(.delete, .v1, "stacks/:stackId/publication")
        /// `GET /api/v1/explore`: the catalogue, searched and filtered, a page at a time.
        public static let explore = Endpoint(.get, .v1, "explore")
        /// `GET /api/v1/explore/{entryId}`: one published stack with a page of its cards.
        public static let exploreEntry = Endpoint(.get, .v1, "explore/:entryId")
        /// `POST /api/v1/explore/{entryId}/copy`: the caller's own copy of a published stack.
        public static let copyExplored = Endpoint(.post, .v1, "explore/:entryId/copy")
        /// `POST /api/v1/explore/{entryId}/report`: reports an entry (hidden for the reporter).
        public static let reportExplored = Endpoint(.post, .v1, "explore/:entryId/report")
        /// `POST /api/v1/render`: a rich text as sanitised HTML and plain text (an editor's preview).
        public static let renderText = Endpoint(.post, .v1, "render")
        /// `POST /api/v1/stacks/{stackId}/match`: a finished match game; the best time is kept.
        public static let recordMatch = Endpoint(.post, .v1, "stacks/:stackId/match")
        /// `POST /api/v1/stacks/{stackId}/study/check`: a typed answer against the card's (Write mode).
        public static let studyCheck = Endpoint(.post, .v1, "stacks/:stackId/study/check")
        /// `POST /api/v1/stacks/{stackId}/cards/{cardId}/undo`
        public static let undoReview = Endpoint(.post, .v1, "stacks/:stackId/cards/:cardId/undo")
        /// `POST /api/v1/reviews`: reviews made offline.
        public static let syncReviews = Endpoint(.post, .v1, "reviews")

        // MARK: Statistics

        /// `GET /api/v1/stacks/{stackId}/stats`
        public static let stackStats = Endpoint(.get, .v1, "stacks/:stackId/stats")
        /// `GET /api/v1/stacks/{stackId}/stats/retrievability`
        public static let stackRetrievability = Endpoint(.get, .v1, "stacks/:stackId/stats/retrievability")
        /// `GET /api/v1/me/stats`
        public static let userStats = Endpoint(.get, .v1, "me/stats")
        /// `GET /api/v1/me/stats/retrievability`
        public static let userRetrievability = Endpoint(.get, .v1, "me/stats/retrievability")

        // Workload and retention advice (`docs/fsrs.md`)
        /// `GET /api/v1/stacks/{stackId}/workload?days=30`: the days ahead as the simulator expects them.
        public static let stackWorkload = Endpoint(.get, .v1, "stacks/:stackId/workload")
        /// `GET /api/v1/me/workload?days=30`: the same over all FSRS stacks.
        public static let userWorkload = Endpoint(.get, .v1, "me/workload")
        /// `POST /api/v1/stacks/{stackId}/workload/simulate`: the workload with "what if" inputs.
        public static let simulateStack = Endpoint(.post, .v1, "stacks/:stackId/workload/simulate")
        /// `POST /api/v1/me/workload/simulate`.
        public static let simulateUser = Endpoint(.post, .v1, "me/workload/simulate")
        /// `GET /api/v1/stacks/{stackId}/retention-advice`: a year simulated at each retention.
        public static let stackRetentionAdvice = Endpoint(.get, .v1, "stacks/:stackId/retention-advice")
        /// `GET /api/v1/me/retention-advice`.
        public static let userRetentionAdvice = Endpoint(.get, .v1, "me/retention-advice")
        /// `POST /api/v1/stacks/{stackId}/schedule/break`: plans a break (`BreakRequest`).
        public static let stackBreak = Endpoint(.post, .v1, "stacks/:stackId/schedule/break")
        /// `POST /api/v1/me/schedule/break`: the same over all FSRS stacks.
        public static let userBreak = Endpoint(.post, .v1, "me/schedule/break")
        /// `POST /api/v1/stacks/{stackId}/schedule/postpone`: postpones part of a backlog.
        public static let stackPostpone = Endpoint(.post, .v1, "stacks/:stackId/schedule/postpone")
        /// `POST /api/v1/me/schedule/postpone`.
        public static let userPostpone = Endpoint(.post, .v1, "me/schedule/postpone")
        /// `POST /api/v1/stacks/{stackId}/schedule/advance`: reviews cards of the next days today.
        public static let stackAdvance = Endpoint(.post, .v1, "stacks/:stackId/schedule/advance")
        /// `POST /api/v1/me/schedule/advance`.
        public static let userAdvance = Endpoint(.post, .v1, "me/schedule/advance")
        /// `GET /api/v1/stacks/{stackId}/stats/memory`: FSRS memory distributions, true retention, buttons.
        public static let stackMemoryStats = Endpoint(.get, .v1, "stacks/:stackId/stats/memory")
        /// `GET /api/v1/me/stats/memory`.
        public static let userMemoryStats = Endpoint(.get, .v1, "me/stats/memory")

        // MARK: Scheduler parameters

        /// `GET /api/v1/me/scheduler`
        public static let schedulerParameters = Endpoint(.get, .v1, "me/scheduler")
        /// `DELETE /api/v1/me/scheduler`: back to the default parameters.
        public static let resetSchedulerParameters = Endpoint(.delete, .v1, "me/scheduler")
        /// `POST /api/v1/me/scheduler/optimize`
        public static let optimizeScheduler = Endpoint(.post, .v1, "me/scheduler/optimize")

        // MARK: Jobs

        /// `GET /api/v1/jobs/{jobId}`
        public static let job = Endpoint(.get, .v1, "jobs/:jobId")
        /// `GET /api/v1/jobs/{jobId}/events`: Server-Sent Events.
        public static let jobEvents = Endpoint(.get, .v1, "jobs/:jobId/events")
        /// `POST /api/v1/jobs/{jobId}/cancel`
        public static let cancelJob = Endpoint(.post, .v1, "jobs/:jobId/cancel")

        // MARK: Generation

        /// `GET /api/v1/generation`: which generator this server uses (public).
        public static let generationInfo = Endpoint(.get, .v1, "generation")
        /// `POST /api/v1/stacks/{stackId}/generations`: a streamed upload that starts a job.
        public static let startGeneration = Endpoint(.post, .v1, "stacks/:stackId/generations")
        /// `GET /api/v1/stacks/{stackId}/drafts`
        public static let listDrafts = Endpoint(.get, .v1, "stacks/:stackId/drafts")
        /// `POST /api/v1/stacks/{stackId}/drafts/accept`
        public static let acceptDrafts = Endpoint(.post, .v1, "stacks/:stackId/drafts/accept")
        /// `PATCH /api/v1/stacks/{stackId}/drafts/{draftId}`
        public static let updateDraft = Endpoint(.patch, .v1, "stacks/:stackId/drafts/:draftId")
        /// `DELETE /api/v1/stacks/{stackId}/drafts/{draftId}`
        public static let discardDraft = Endpoint(.delete, .v1, "stacks/:stackId/drafts/:draftId")
        /// `POST /api/v1/stacks/{stackId}/drafts`: a draft the learner wrote from a passage.
        public static let createDraft = Endpoint(.post, .v1, "stacks/:stackId/drafts")
        /// `POST /api/v1/stacks/{stackId}/drafts/suggestion`: the rules' card for a passage (not saved).
        public static let suggestDraft = Endpoint(.post, .v1, "stacks/:stackId/drafts/suggestion")
        /// `GET /api/v1/stacks/{stackId}/generations/{jobId}/source`: the job's source, marked.
        public static let generationSource = Endpoint(.get, .v1, "stacks/:stackId/generations/:jobId/source")

        /// Every endpoint of the primary API.
        // Progress without pressure (issue 18).
        /// `POST /api/v1/auth/guest`: a guest account, no mail or password.
        public static let guest = Endpoint(.post, .v1, "auth/guest")
        /// `POST /api/v1/auth/upgrade`: a guest account gets a mail and password.
        public static let upgradeGuest = Endpoint(.post, .v1, "auth/upgrade")
        /// `POST /api/v1/auth/logout`: revokes the caller's token.
        public static let logout = Endpoint(.post, .v1, "auth/logout")
        /// `GET /api/v1/me/settings`.
        public static let settings = Endpoint(.get, .v1, "me/settings")
        /// `PATCH /api/v1/me/settings`.
        public static let updateSettings = Endpoint(.patch, .v1, "me/settings")
        /// `GET /api/v1/me/progress`: the home screen.
        public static let progress = Endpoint(.get, .v1, "me/progress")
        /// `PUT /api/v1/me/rest-days/{date}`.
        public static let addRestDay = Endpoint(.put, .v1, "me/rest-days/:date")
        /// `DELETE /api/v1/me/rest-days/{date}`.
        public static let removeRestDay = Endpoint(.delete, .v1, "me/rest-days/:date")
        /// `POST /api/v1/me/mystery-box`.
        public static let openMysteryBox = Endpoint(.post, .v1, "me/mystery-box")
        /// `GET /api/v1/leaderboards/daily`.
        public static let dailyLeaderboard = Endpoint(.get, .v1, "leaderboards/daily")
        /// `GET /api/v1/push/key`: the VAPID public key.
        public static let pushKey = Endpoint(.get, .v1, "push/key")
        /// `POST /api/v1/me/push-subscriptions`.
        public static let addPushSubscription = Endpoint(.post, .v1, "me/push-subscriptions")
        /// `DELETE /api/v1/me/push-subscriptions`.
        public static let removePushSubscription = Endpoint(.delete, .v1, "me/push-subscriptions")

        // Import and export (`docs/import.md`)
        /// `POST /api/v1/imports/preview`: what a file would import, nothing written.
        public static let previewImport = Endpoint(.post, .v1, "imports/preview")
        /// `POST /api/v1/imports`: queues an import job.
        public static let startImport = Endpoint(.post, .v1, "imports")
        /// `GET /api/v1/stacks/{stackId}/export?format=csv|tsv|apkg|json`.
        public static let exportStack = Endpoint(.get, .v1, "stacks/:stackId/export")
        /// `GET /api/v1/me/backup?format=json|zip`: the whole account as a backup document.
        public static let backup = Endpoint(.get, .v1, "me/backup")
        /// `POST /api/v1/me/restore` (multipart `file`): restores a backup into an account without stacks.
        public static let restore = Endpoint(.post, .v1, "me/restore")

        // Personal access tokens (`docs/mcp.md`)
        /// `GET /api/v1/me/tokens`: the learner's personal access tokens, newest first.
        public static let listTokens = Endpoint(.get, .v1, "me/tokens")
        /// `POST /api/v1/me/tokens`: a new token; its secret is in this answer only.
        public static let createToken = Endpoint(.post, .v1, "me/tokens")
        /// `DELETE /api/v1/me/tokens/{tokenId}`: revokes a token.
        public static let revokeToken = Endpoint(.delete, .v1, "me/tokens/:tokenId")
        /// `GET /api/v1/me/tokens/{tokenId}/activity`: what the token did, newest first.
        public static let tokenActivity = Endpoint(.get, .v1, "me/tokens/:tokenId/activity")

        /// `GET /api/v1/oauth/client?clientId&redirectUri`: the client asking for access (consent page).
        public static let oauthClient = Endpoint(.get, .v1, "oauth/client")
        /// `POST /api/v1/oauth/authorize`: the learner allows (or refuses) an OAuth client.
        public static let oauthAuthorize = Endpoint(.post, .v1, "oauth/authorize")
        /// `POST /api/v1/stacks/{stackId}/partner`: the study partner's answer as Server-Sent Events.
        public static let askPartner = Endpoint(.post, .v1, "stacks/:stackId/partner")

        public static let all: [Endpoint] = [
            health, ready, oidcProviders, oidcStart, oidcCallback, oidcCallbackPost, oidcSession, oidcLink,
            identities, unlinkIdentity, openAPIDocument, listTokens, createToken, revokeToken, tokenActivity,
            askPartner,
            oauthClient, oauthAuthorize,
            previewImport, startImport, exportStack, backup, restore,
            guest, upgradeGuest, logout, settings, updateSettings, progress, addRestDay, removeRestDay,
            openMysteryBox, dailyLeaderboard, pushKey, addPushSubscription, removePushSubscription,
            signup, login, me, updateMe, deleteMe, changePassword,
            passwordResetStatus, requestPasswordReset, confirmPasswordReset,
            listStacks, createStack, showStack, updateStack, deleteStack,
            listCards, createCard, showCard, updateCard, deleteCard, bookmarkCard, unbookmarkCard,
            renderText, uploadImage, image, shareLink, createShareLink, revokeShareLink, sharedStack, copySharedStack,
            publication, publish, unpublish, explore, exploreEntry, copyExplored, reportExplored, studyNext, studyRate,
            studyQuiz, studyCheck, recordMatch, undoReview, syncReviews,
            stackStats, stackRetrievability, userStats, userRetrievability,
            stackWorkload, userWorkload, simulateStack, simulateUser, stackRetentionAdvice, userRetentionAdvice,
            stackBreak, userBreak, stackPostpone, userPostpone, stackAdvance, userAdvance,
            stackMemoryStats, userMemoryStats,
            schedulerParameters, resetSchedulerParameters, optimizeScheduler,
            job, jobEvents, cancelJob,
            generationInfo, startGeneration, listDrafts, acceptDrafts, updateDraft, discardDraft,
            createDraft, suggestDraft, generationSource,
        ]
    }
}
