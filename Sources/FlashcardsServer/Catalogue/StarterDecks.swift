import FlashcardsAPI
import FlashcardsCore

/// The starter catalogue: a few decks written by the Smart Flashcards team, published on a new
/// server's first start so that Explore is never empty.
enum StarterDecks {
    struct Deck {
        let name: String
        let description: String
        let color: String
        let icon: StackIcon
        let category: CatalogueCategory
        let language: CatalogueLanguage
        var format: CardFormat = .plain
        let cards: [(question: String, answer: String)]
    }

    static let all: [Deck] = [
        Deck(
            name: "Europäische Hauptstädte",
            description: "Die Hauptstädte der Länder Europas, vom Atlantik bis zum Ural.",
            color: "#2563EB", icon: .globe, category: .geography, language: .de,
            cards: [
                ("Hauptstadt von Frankreich?", "Paris"), ("Hauptstadt von Italien?", "Rom"),
                ("Hauptstadt von Spanien?", "Madrid"), ("Hauptstadt von Portugal?", "Lissabon"),
                ("Hauptstadt von Polen?", "Warschau"), ("Hauptstadt von Tschechien?", "Prag"),
                ("Hauptstadt von Ungarn?", "Budapest"), ("Hauptstadt von Schweden?", "Stockholm"),
                ("Hauptstadt von Norwegen?", "Oslo"), ("Hauptstadt von Finnland?", "Helsinki"),
                ("Hauptstadt von Irland?", "Dublin"), ("Hauptstadt von Griechenland?", "Athen"),
                ("Hauptstadt von Rumänien?", "Bukarest"), ("Hauptstadt der Schweiz?", "Bern"),
                ("Hauptstadt von Österreich?", "Wien"),
            ]),
        Deck(
            name: "Chemische Elemente", description: "Symbole und Namen der häufigsten chemischen Elemente.",
            color: "#059669", icon: .science, category: .science, language: .de,
            cards: [
                ("Wofür steht das Symbol H?", "Wasserstoff"), ("Wofür steht das Symbol He?", "Helium"),
                ("Wofür steht das Symbol C?", "Kohlenstoff"), ("Wofür steht das Symbol N?", "Stickstoff"),
                ("Wofür steht das Symbol O?", "Sauerstoff"), ("Wofür steht das Symbol Na?", "Natrium"),
                ("Wofür steht das Symbol K?", "Kalium"), ("Wofür steht das Symbol Fe?", "Eisen"),
                ("Wofür steht das Symbol Cu?", "Kupfer"), ("Wofür steht das Symbol Ag?", "Silber"),
                ("Wofür steht das Symbol Au?", "Gold"), ("Wofür steht das Symbol Hg?", "Quecksilber"),
                ("Wofür steht das Symbol Pb?", "Blei"), ("Wofür steht das Symbol S?", "Schwefel"),
            ]),
        Deck(
            name: "Englische unregelmäßige Verben",
            description: "Grundform, Vergangenheit und Partizip der häufigsten unregelmäßigen Verben.",
            color: "#D97706", icon: .language, category: .languages, language: .de,
            cards: [
                ("to be", "was/were – been"), ("to go", "went – gone"), ("to see", "saw – seen"),
                ("to take", "took – taken"), ("to write", "wrote – written"), ("to speak", "spoke – spoken"),
                ("to buy", "bought – bought"), ("to think", "thought – thought"), ("to bring", "brought – brought"),
                ("to begin", "began – begun"), ("to drink", "drank – drunk"), ("to fly", "flew – flown"),
                ("to know", "knew – known"), ("to choose", "chose – chosen"),
            ]),
        Deck(
            name: "World Capitals", description: "Capitals of countries around the world, one continent after another.",
            color: "#7C3AED", icon: .globe, category: .geography, language: .en,
            cards: [
                ("Capital of Japan?", "Tokyo"), ("Capital of Canada?", "Ottawa"), ("Capital of Australia?", "Canberra"),
                ("Capital of Brazil?", "Brasília"), ("Capital of Argentina?", "Buenos Aires"),
                ("Capital of Egypt?", "Cairo"), ("Capital of Kenya?", "Nairobi"), ("Capital of India?", "New Delhi"),
                ("Capital of South Korea?", "Seoul"), ("Capital of Mexico?", "Mexico City"),
                ("Capital of Turkey?", "Ankara"), ("Capital of Nigeria?", "Abuja"),
                ("Capital of New Zealand?", "Wellington"), ("Capital of Peru?", "Lima"),
            ]),
        Deck(
            name: "Physics Formulas",
            description: "The core formulas of school mechanics and electricity, with what each letter means.",
            color: "#DC2626", icon: .science, category: .science, language: .en, format: .markdown,
            cards: [
                ("Newton's **second law**?", "$F = m \\cdot a$ (force = mass × acceleration)"),
                ("**Kinetic energy** of a moving body?", "$E_k = \\frac{1}{2} m v^2$"),
                ("**Potential energy** near the Earth's surface?", "$E_p = m g h$"),
                ("**Ohm's law**?", "$U = R \\cdot I$ (voltage = resistance × current)"),
                ("**Electric power**?", "$P = U \\cdot I$"),
                ("**Density**?", "$\\rho = \\frac{m}{V}$"),
                ("**Speed** at constant velocity?", "$v = \\frac{s}{t}$"),
                ("**Momentum**?", "$p = m \\cdot v$"),
                ("Mass–energy **equivalence**?", "$E = m c^2$"),
                ("**Pressure**?", "$p = \\frac{F}{A}$ (force per area)"),
            ]),
        Deck(
            name: "Human Body Basics", description: "Organs, bones and systems of the human body.",
            color: "#DB2777", icon: .health, category: .medicine, language: .en,
            cards: [
                ("Largest organ of the human body?", "The skin"),
                ("Longest bone of the human body?", "The femur (thigh bone)"),
                ("How many chambers does the human heart have?", "Four"),
                ("Which organ filters the blood and makes urine?", "The kidneys"),
                ("Where is insulin produced?", "In the pancreas (beta cells of the islets of Langerhans)"),
                ("How many bones does an adult human have?", "206"),
                ("Which blood cells carry oxygen?", "Red blood cells (erythrocytes)"),
                ("Smallest bone of the human body?", "The stapes (stirrup) in the middle ear"),
                ("Which organ stores bile?", "The gallbladder"),
                ("Where does gas exchange in the lungs take place?", "In the alveoli"),
            ]),
    ]
}
