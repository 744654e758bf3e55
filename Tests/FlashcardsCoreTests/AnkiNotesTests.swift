import Testing

@testable import FlashcardsCore

@Suite("Anki notes as cards: HTML to text, templates, cloze deletions, protobuf")
struct AnkiNotesTests {
    @Test("HTML becomes safe text: scripts dropped, breaks kept, entities decoded, media named")
    func html() {
        let xss = AnkiNotes.html("<script>alert(1)</script>Nein, &lt;script&gt; ist gefährlich.")
        #expect(xss.text == "Nein, <script> ist gefährlich." && xss.media.isEmpty)
        let mito = AnkiNotes.html(
            "Das Kraftwerk der Zelle.<br>Sie erzeugt ATP &amp; Wärme.<br><img src=\"mitochondrie.png\">")
        #expect(mito.text == "Das Kraftwerk der Zelle.\nSie erzeugt ATP & Wärme." && mito.media == ["mitochondrie.png"])
        #expect(AnkiNotes.html("Zellkern&nbsp;&amp; DNA").text == "Zellkern & DNA")
        #expect(
            AnkiNotes.html("<div>a</div><div>b&#x20AC;&#228;</div>[sound:x.mp3]<STYLE>p{}</STYLE>").text == "a\nb€ä")
        #expect(AnkiNotes.html("[sound:x.mp3]").media == ["x.mp3"])
        #expect(AnkiNotes.html("a < b & c").text == "a < b & c")
    }

    @Test("templates fill fields, sections and FrontSide; the answer drops the repeated front")
    func templates() {
        let type = AnkiNotes.NoteType(
            name: "Vokabel", kind: .normal, fields: ["Wort", "Bedeutung", "Beispiel"],
            templates: [
                0: (
                    "<div class=\"wort\">{{Wort}}</div>{{#Beispiel}}<i>{{Beispiel}}</i>{{/Beispiel}}",
                    "{{FrontSide}}<hr id=answer>{{Bedeutung}}{{^Beispiel}} (ohne Beispiel){{/Beispiel}}"
                )
            ])
        let with = AnkiNotes.sides(
            of: type, fields: ["die Zelle", "cell", "Die Zelle teilt sich."], ord: 0, tags: [], deck: "V")
        #expect(with.question == "die Zelle\nDie Zelle teilt sich." && with.answer == "cell")
        let without = AnkiNotes.sides(of: type, fields: ["der Kern", "nucleus", ""], ord: 0, tags: [], deck: "V")
        #expect(without.question == "der Kern" && without.answer == "nucleus (ohne Beispiel)")
        let reversed = AnkiNotes.NoteType(
            name: "Basic (and reversed card)", kind: .normal, fields: ["Front", "Back"],
            templates: [
                0: ("{{Front}}", "{{FrontSide}}<hr id=answer>{{Back}}"),
                1: ("{{Back}}", "{{FrontSide}}\n\n<hr id=answer>\n\n{{Front}}"),
            ])
        let second = AnkiNotes.sides(
            of: reversed, fields: ["Photosynthese", "Licht zu Energie"], ord: 1, tags: [], deck: "B")
        #expect(second.question == "Licht zu Energie" && second.answer == "Photosynthese")
        var hints: [String] = []
        let typing = AnkiNotes.Template.render(
            "{{Front}}{{type:Back}}{{#Hint}}<br>{{hint:Hint}}{{/Hint}}",
            fields: ["Front": "F", "Back": "B", "Hint": "H"],
            frontSide: "", hints: &hints)
        #expect(typing == "F<br>" && hints == ["H"])
        let hinted = AnkiNotes.NoteType(
            name: "Smart Flashcards", kind: .normal, fields: ["Front", "Back", "Hint"],
            templates: [0: ("{{Front}}{{#Hint}}<br><br>{{hint:Hint}}{{/Hint}}", "{{Front}}<hr id=answer>{{Back}}")])
        let sides = AnkiNotes.sides(
            of: hinted, fields: ["Frage", "Antwort", "Tipp &amp; Trick"], ord: 0, tags: [], deck: "D")
        #expect(sides.question == "Frage" && sides.answer == "Antwort" && sides.hint == "Tipp & Trick")
    }

    @Test("cloze cards blank their own deletion, show the others, and answer with the deleted text")
    func cloze() {
        let text = "Die {{c1::Zellmembran}} umgibt die {{c2::Zelle::Hülle?}}."
        #expect(Cloze.numbers(in: text) == [1, 2])
        let type = AnkiNotes.NoteType(name: "Cloze", kind: .cloze, fields: ["Text", "Back Extra"], templates: [:])
        let first = AnkiNotes.sides(
            of: type, fields: [text, "Siehe auch: <u>Zellwand</u>"], ord: 0, tags: [], deck: "B")
        #expect(first.question == "Die […] umgibt die Zelle.")
        #expect(first.answer == "Zellmembran\n\nSiehe auch: Zellwand")
        let second = AnkiNotes.sides(of: type, fields: [text, ""], ord: 1, tags: [], deck: "B")
        #expect(second.question == "Die Zellmembran umgibt die [Hülle?]." && second.answer == "Zelle")
        #expect(Cloze.gaps(in: "{{c1::a {{b}} c}} d").map(\.answer) == ["a {{b}} c"])
        #expect(Cloze.side(of: "{{c1::a {{b}} c}} d", asking: 1, revealed: false, bold: false) == "[…] d")
    }

    @Test("protobuf fields: varints and length-delimited values; broken input is nil")
    func protobuf() {
        // MediaEntries { entries { name: "zelle.png", size: 74 } }
        let entry: [UInt8] = [0x0A, 0x09] + Array("zelle.png".utf8) + [0x10, 0x4A]
        let fields = AnkiNotes.protobufFields([0x0A, UInt8(entry.count)] + entry)
        let inner = fields?[1]?.first?.data.flatMap(AnkiNotes.protobufFields)
        #expect(inner?[1]?.first?.string == "zelle.png" && inner?[2]?.first?.int == 74)
        #expect(AnkiNotes.protobufFields([0x0A, 0x05, 0x01]) == nil)
        #expect(AnkiNotes.protobufFields([0x08, 0x01])?[1]?.first?.int == 1)
    }
}
