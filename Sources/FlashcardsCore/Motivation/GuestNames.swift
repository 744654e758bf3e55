/// Names for guest accounts: a German adjective and animal with a three-digit number, such as
/// `NeugierigerOtter042`. Friendly, never about the learner, and unlikely to repeat (15 × 20 × 1,000
/// combinations; names need not be unique, they are display names).
public enum GuestNames {
    static let adjectives = [
        "Neugieriger", "Fleißiger", "Kluger", "Mutiger", "Ruhiger", "Fröhlicher", "Wacher", "Schlauer",
        "Freundlicher", "Geduldiger", "Munterer", "Flinker", "Heiterer", "Emsiger", "Wissbegieriger",
    ]
    static let animals = [
        "Otter", "Fuchs", "Dachs", "Igel", "Biber", "Falke", "Luchs", "Pinguin", "Kolibri", "Delfin", "Adler",
        "Hase", "Wal", "Uhu", "Rabe", "Specht", "Elch", "Panda", "Koala", "Tiger",
    ]

    /// A name drawn with `generator`.
    public static func make(using generator: inout some RandomNumberGenerator) -> String {
        let adjective = adjectives.randomElement(using: &generator)!
        let animal = animals.randomElement(using: &generator)!
        let number = Int.random(in: 0...999, using: &generator)
        let digits = String(number)
        return adjective + animal + String(repeating: "0", count: 3 - digits.count) + digits
    }
}
