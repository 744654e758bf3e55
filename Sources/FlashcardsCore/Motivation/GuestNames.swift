/// Names for guest accounts: an adjective and an animal with a three-digit number, in the learner's
/// interface language, such as `NeugierigerOtter042` or `CuriousOtter042`. Friendly, never about the
/// learner, and unlikely to repeat (15 × 20 × 1,000 combinations per language; names need not be
/// unique, they are display names).
public enum GuestNames {
    /// The words of one language.
    public struct Words: Sendable {
        public let adjectives: [String]
        public let animals: [String]
    }

    public static let german = Words(
        adjectives: [
            "Neugieriger", "Fleißiger", "Kluger", "Mutiger", "Ruhiger", "Fröhlicher", "Wacher", "Schlauer",
            "Freundlicher", "Geduldiger", "Munterer", "Flinker", "Heiterer", "Emsiger", "Wissbegieriger",
        ],
        animals: [
            "Otter", "Fuchs", "Dachs", "Igel", "Biber", "Falke", "Luchs", "Pinguin", "Kolibri", "Delfin", "Adler",
            "Hase", "Wal", "Uhu", "Rabe", "Specht", "Elch", "Panda", "Koala", "Tiger",
        ])

    public static let english = Words(
        adjectives: [
            "Curious", "Diligent", "Clever", "Brave", "Calm", "Cheerful", "Alert", "Bright", "Friendly", "Patient",
            "Lively", "Nimble", "Sunny", "Busy", "Eager",
        ],
        animals: [
            "Otter", "Fox", "Badger", "Hedgehog", "Beaver", "Falcon", "Lynx", "Penguin", "Hummingbird", "Dolphin",
            "Eagle", "Hare", "Whale", "Owl", "Raven", "Woodpecker", "Moose", "Panda", "Koala", "Tiger",
        ])

    /// The words for an interface language (`de`, `en`); German for any other.
    static func words(for language: String) -> Words { language == "en" ? english : german }

    /// A name in `language` drawn with `generator`.
    public static func make(language: String = "de", using generator: inout some RandomNumberGenerator) -> String {
        let words = words(for: language)
        let adjective = words.adjectives.randomElement(using: &generator)!
        let animal = words.animals.randomElement(using: &generator)!
        let number = Int.random(in: 0...999, using: &generator)
        let digits = String(number)
        return adjective + animal + String(repeating: "0", count: 3 - digits.count) + digits
    }
}
