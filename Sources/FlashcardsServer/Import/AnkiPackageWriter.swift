import Crypto
import FlashcardsCore
import FlashcardsGeneration
import Foundation
import NIOPosix
import SQLiteNIO

/// Writes an Anki package in the legacy format every Anki since 2.1 imports: `collection.anki21`
/// (schema 11: note types and decks as JSON in `col`), the media map (JSON `{"0": "<id>.png"}`)
/// and the images the rich cards show as entries `0`, `1`, …, stored as they are. One deck, one note
/// type "Smart Flashcards" (Front, Back, Hint), one note per card, the cards' scheduling state and
/// the review log.
public enum AnkiPackageWriter {
    /// One answer of the review log.
    public struct Review: Sendable {
        public let time: Date
        /// 1 again … 4 easy.
        public let ease: Int
        public let durationMs: Int
        /// 0 learn, 1 review, 2 relearn (the card's state before the answer).
        public let type: Int
        /// The interval the answer gave: days (positive) or seconds (negative, a learning step).
        public let interval: Int
        public let lastInterval: Int

        /// Creates the answer.
        public init(time: Date, ease: Int, durationMs: Int, type: Int, interval: Int, lastInterval: Int) {
            self.time = time
            self.ease = ease
            self.durationMs = durationMs
            self.type = type
            self.interval = interval
            self.lastInterval = lastInterval
        }
    }

    /// One card with its note's texts.
    public struct Card: Sendable {
        public let question: String
        public let answer: String
        public let hint: String?
        public let tags: [String]
        public let createdAt: Date
        public let schedule: CardSchedule
        public let reviews: [Review]
        /// How the texts are written: a rich card's fields are its sanitised HTML, formulas in
        /// MathJax's delimiters (Anki typesets them).
        public let format: CardFormat

        /// Creates the card.
        public init(
            question: String, answer: String, hint: String?, tags: [String], createdAt: Date, schedule: CardSchedule,
            reviews: [Review], format: CardFormat = .plain
        ) {
            self.format = format
            self.question = question
            self.answer = answer
            self.hint = hint
            self.tags = tags
            self.createdAt = createdAt
            self.schedule = schedule
            self.reviews = reviews
        }
    }

    /// A media file: an image a rich card shows, named `<id>.<ext>`.
    public struct MediaFile: Sendable {
        public let name: String
        public let data: Data

        /// Creates the file.
        public init(name: String, data: Data) {
            self.name = name
            self.data = data
        }
    }

    /// The media file name of image `id` of `type` (what a field's `<img src>` names).
    public static func mediaName(id: String, type: ImageType) -> String { id.lowercased() + "." + type.fileExtension }

    /// Ids of the note type and the deck (Anki needs them unique within their table only).
    static let noteTypeId: Int64 = 1_700_000_000_000
    static let deckId: Int64 = 1_700_000_000_001

    /// The package bytes. `media` are the images the cards show; `mediaNames` maps an image id to
    /// its file name (a rich card's `<img src>`; an image without one becomes its description).
    public static func package(
        deck: String, cards: [Card], now: Date, threadPool: NIOThreadPool, media: [MediaFile] = [],
        mediaNames: [String: String] = [:]
    ) async throws -> Data {
        try await TemporaryWorkspace.with { directory in
            let path = directory.appendingPathComponent("collection.anki21").path
            try await threadPool.runIfActive {
                try write(deck: deck, cards: cards, now: now, path: path, mediaNames: mediaNames)
            }
            let collection = try Data(contentsOf: URL(fileURLWithPath: path))
            let map = Dictionary(uniqueKeysWithValues: media.enumerated().map { (String($0.offset), $0.element.name) })
            let mapJSON = try JSONSerialization.data(withJSONObject: map, options: [.sortedKeys])
            return ZipArchive.make(
                [("collection.anki21", collection), ("media", mapJSON)]
                    + media.enumerated().map { (String($0.offset), $0.element.data) })
        }
    }

    private static func write(deck: String, cards: [Card], now: Date, path: String, mediaNames: [String: String])
        throws
    {
        let db = try InlineSQLiteConnection(path: path, synchronous: "OFF")
        defer { db.close() }
        func exec(_ sql: String, _ binds: [SQLiteData] = []) throws { _ = try db.run(sql, binds) { _ in } }
        try exec("PRAGMA journal_mode = DELETE")
        for statement in schema { try exec(statement) }
        // The collection's day 0: 4:00 UTC of the day of its first card or review.
        let first = cards.flatMap { [$0.createdAt] + $0.reviews.map(\.time) }.min() ?? now
        let created = Int64(first.timeIntervalSince1970 / 86_400) * 86_400 + 4 * 3_600
        let seconds = Int64(now.timeIntervalSince1970)
        try exec(
            "INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')",
            [
                .integer(Int(created)), .integer(Int(seconds * 1_000)), .integer(Int(seconds * 1_000)),
                .text(configuration), .text(noteTypeJSON(mod: seconds)), .text(decksJSON(deck, mod: seconds)),
                .text(deckConfigJSON(mod: seconds)),
            ])
        try exec("BEGIN")
        var usedReviewIds = Set<Int64>()
        // Note and card ids are creation times in ms in Anki: the first card's, counting up.
        let firstId = Int64((cards.map(\.createdAt).min() ?? now).timeIntervalSince1970 * 1_000)
        for (index, card) in cards.enumerated() {
            let id = firstId + Int64(index)
            let fields = [card.question, card.answer, card.hint ?? ""]
                .map { field(card.format, $0, imageFile: { mediaNames[$0] }) }
                .joined(separator: "\u{1F}")
            let tags = card.tags.isEmpty ? "" : " " + card.tags.joined(separator: " ") + " "
            try exec(
                "INSERT INTO notes VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')",
                [
                    .integer(Int(id)), .text(guid(id)), .integer(Int(noteTypeId)), .integer(Int(seconds)),
                    .text(tags), .text(fields), .text(card.question), .integer(checksum(card.question)),
                ])
            let state = cardState(card.schedule, position: index, created: created, now: now)
            let lapses = card.reviews.filter { $0.type == 1 && $0.ease == 1 }.count
            try exec(
                "INSERT INTO cards VALUES (?, ?, ?, 0, ?, -1, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, ?)",
                [
                    .integer(Int(id)), .integer(Int(id)), .integer(Int(deckId)), .integer(Int(seconds)),
                    .integer(state.type), .integer(state.queue), .integer(state.due), .integer(state.interval),
                    .integer(state.type == 0 ? 0 : 2_500), .integer(card.reviews.count), .integer(lapses),
                    .text(state.data),
                ])
            for review in card.reviews {
                var reviewId = Int64(review.time.timeIntervalSince1970 * 1_000)
                while !usedReviewIds.insert(reviewId).inserted { reviewId += 1 }
                try exec(
                    "INSERT INTO revlog VALUES (?, ?, -1, ?, ?, ?, ?, ?, ?)",
                    [
                        .integer(Int(reviewId)), .integer(Int(id)), .integer(review.ease), .integer(review.interval),
                        .integer(review.lastInterval), .integer(review.type == 0 ? 0 : 2_500),
                        .integer(min(review.durationMs, 3_600_000)), .integer(review.type),
                    ])
            }
        }
        try exec("COMMIT")
    }

    /// Anki's type, queue, due and interval for a card; FSRS memory state in `data`.
    private static func cardState(_ schedule: CardSchedule, position: Int, created: Int64, now: Date)
        -> (type: Int, queue: Int, due: Int, interval: Int, data: String)
    {
        var data = "{}"
        if let stability = schedule.stability, let difficulty = schedule.difficulty {
            data = String(format: "{\"s\":%.4f,\"d\":%.4f}", stability, difficulty)
        }
        switch schedule.state {
        case .new: return (0, 0, position + 1, 0, "{}")
        case .learning, .relearning:
            return (
                schedule.state == .learning ? 1 : 3, 1, Int(schedule.due.timeIntervalSince1970),
                0, data
            )
        case .review:
            let day = Int((schedule.due.timeIntervalSince1970 - Double(created)) / 86_400)
            let interval = max(
                1, Int(((schedule.due.timeIntervalSince(schedule.lastReviewedAt ?? now)) / 86_400).rounded()))
            return (2, 2, max(0, day), interval, data)
        }
    }

    /// A card's text as an Anki field: a rich card's sanitised HTML (an image as `<img src>` of its
    /// media file, from `imageFile`), a plain card's escaped text.
    static func field(_ format: CardFormat, _ text: String, imageFile: @escaping (String) -> String? = { _ in nil })
        -> String
    {
        switch format {
        case .plain: html(text)
        case .markdown: text.isEmpty ? "" : RichText.html(text, formulas: .mathJax, imageFile: imageFile)
        }
    }

    /// Text as an HTML field: `&`, `<`, `>` escaped, line breaks as `<br>`.
    static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\n", with: "<br>")
    }

    /// A note's guid: ten characters from its id (Anki only needs them unique).
    private static func guid(_ id: Int64) -> String {
        let alphabet = Array(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<=>?@[]^_`{|}~")
        var value = UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15
        return String(
            (0..<10).map { _ in
                defer { value /= UInt64(alphabet.count) }
                return alphabet[Int(value % UInt64(alphabet.count))]
            })
    }

    /// The first 8 hex digits of the SHA-1 of the sort field, as a number (Anki's duplicate check).
    private static func checksum(_ text: String) -> Int {
        Insecure.SHA1.hash(data: Data(text.utf8)).prefix(4).reduce(0) { $0 << 8 | Int($1) }
    }

    private static let schema = [
        """
        CREATE TABLE col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
        ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
        models text not null, decks text not null, dconf text not null, tags text not null)
        """,
        """
        CREATE TABLE notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
        usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null,
        flags integer not null, data text not null)
        """,
        """
        CREATE TABLE cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
        mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
        ivl integer not null, factor integer not null, reps integer not null, lapses integer not null,
        left integer not null, odue integer not null, odid integer not null, flags integer not null, data text not null)
        """,
        """
        CREATE TABLE revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
        ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null,
        type integer not null)
        """,
        "CREATE TABLE graves (usn integer not null, oid integer not null, type integer not null)",
        "CREATE INDEX ix_notes_usn on notes (usn)",
        "CREATE INDEX ix_cards_usn on cards (usn)",
        "CREATE INDEX ix_revlog_usn on revlog (usn)",
        "CREATE INDEX ix_cards_nid on cards (nid)",
        "CREATE INDEX ix_cards_sched on cards (did, queue, due)",
        "CREATE INDEX ix_revlog_cid on revlog (cid)",
        "CREATE INDEX ix_notes_csum on notes (csum)",
    ]

    private static let configuration =
        #"{"activeDecks":[1],"curDeck":1,"newSpread":0,"collapseTime":1200,"timeLim":0,"estTimes":true,"dueCounts":true,"curModel":null,"nextPos":1,"sortType":"noteFld","sortBackwards":false,"addToCur":true,"schedVer":2}"#

    private static func noteTypeJSON(mod: Int64) -> String {
        let front = "{{Front}}{{#Hint}}<br><br>{{hint:Hint}}{{/Hint}}"
        let back = "{{Front}}\n\n<hr id=answer>\n\n{{Back}}"
        func field(_ name: String, _ ord: Int) -> [String: Any] {
            ["name": name, "ord": ord, "sticky": false, "rtl": false, "font": "Arial", "size": 20, "media": []]
        }
        let type: [String: Any] = [
            "id": noteTypeId, "name": "Smart Flashcards", "type": 0, "mod": mod, "usn": -1, "sortf": 0,
            "did": deckId, "tags": [], "vers": [], "latexPre": "", "latexPost": "", "latexsvg": false,
            "css":
                ".card { font-family: arial; font-size: 20px; text-align: center; color: black; background-color: white; }",
            "flds": [field("Front", 0), field("Back", 1), field("Hint", 2)],
            "tmpls": [
                [
                    "name": "Card 1", "ord": 0, "qfmt": front, "afmt": back, "bqfmt": "", "bafmt": "", "did": NSNull(),
                    "bfont": "", "bsize": 0,
                ] as [String: Any]
            ],
            "req": [[0, "any", [0]]],
        ]
        return json([String(noteTypeId): type])
    }

    private static func decksJSON(_ name: String, mod: Int64) -> String {
        func deck(_ id: Int64, _ name: String) -> [String: Any] {
            [
                "id": id, "name": name, "mod": mod, "usn": -1, "lrnToday": [0, 0], "revToday": [0, 0],
                "newToday": [0, 0], "timeToday": [0, 0], "collapsed": false, "browserCollapsed": false, "desc": "",
                "dyn": 0, "conf": 1, "extendNew": 0, "extendRev": 0,
            ]
        }
        return json(["1": deck(1, "Default"), String(deckId): deck(deckId, name)])
    }

    private static func deckConfigJSON(mod: Int64) -> String {
        let config: [String: Any] = [
            "id": 1, "name": "Default", "mod": mod, "usn": -1, "maxTaken": 60, "autoplay": true, "timer": 0,
            "replayq": true, "dyn": false,
            "new": [
                "bury": false, "delays": [1, 10], "initialFactor": 2_500, "ints": [1, 4, 0], "order": 1, "perDay": 20,
            ] as [String: Any],
            "lapse": ["delays": [10], "leechAction": 1, "leechFails": 8, "minInt": 1, "mult": 0] as [String: Any],
            "rev": [
                "bury": false, "ease4": 1.3, "ivlFct": 1, "maxIvl": 36_500, "perDay": 200, "hardFactor": 1.2,
            ] as [String: Any],
        ]
        return json(["1": config])
    }

    private static func json(_ value: Any) -> String {
        String(
            decoding: (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8),
            as: UTF8.self)
    }
}
