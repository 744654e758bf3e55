import Testing

@testable import FlashcardsCore

@Suite("Rich text: the Markdown subset with formulas")
struct RichTextTests {
    @Test(
        "inline formatting becomes the allowed tags, everything else stays escaped text",
        arguments: [
            ("**fett** und *kursiv*", "<p><strong>fett</strong> und <em>kursiv</em></p>"),
            ("__fett__ und _kursiv_", "<p><strong>fett</strong> und <em>kursiv</em></p>"),
            ("**fett mit *kursiv* darin**", "<p><strong>fett mit <em>kursiv</em> darin</strong></p>"),
            ("snake_case_name bleibt", "<p>snake_case_name bleibt</p>"),
            ("2 * 3 * 4 = 24", "<p>2 * 3 * 4 = 24</p>"),
            ("ein * allein", "<p>ein * allein</p>"),
            ("`a *b* <c>`", "<p><code>a *b* &lt;c&gt;</code></p>"),
            ("\\*kein\\* Stern", "<p>*kein* Stern</p>"),
            ("Zeile 1\nZeile 2", "<p>Zeile 1<br>Zeile 2</p>"),
            ("$E = mc^2$ gilt", "<p><span class=\"math\">E = mc^2</span> gilt</p>"),
            ("5 $ und 10 $", "<p>5 $ und 10 $</p>"),
            ("kostet $5 oder $10", "<p>kostet $5 oder $10</p>"),
            ("$a<b$", "<p><span class=\"math\">a&lt;b</span></p>"),
            ("\\$x\\$", "<p>$x$</p>"),
            ("**offen", "<p>**offen</p>"),
            ("", ""),
        ])
    func inline(source: String, html: String) {
        #expect(RichText.html(source) == html)
    }

    @Test("blocks: paragraphs, code, lists, tables and display formulas")
    func blocks() {
        #expect(RichText.html("Eins\n\nZwei") == "<p>Eins</p><p>Zwei</p>")
        #expect(
            RichText.html("```\nlet x = 1 < 2\n**nicht fett**\n```")
                == "<pre><code>let x = 1 &lt; 2\n**nicht fett**</code></pre>")
        #expect(
            RichText.html("Liste:\n- Apfel\n- **Birne**\n  mit Stiel\n\n1. eins\n2) zwei")
                == "<p>Liste:</p><ul><li>Apfel</li><li><strong>Birne</strong><br>mit Stiel</li></ul><ol><li>eins</li><li>zwei</li></ol>"
        )
        #expect(
            RichText.html("| Säure | pH |\n|:---|---:|\n| HCl | 1 |\n| Wasser |")
                == "<table><thead><tr><th class=\"align-left\">Säure</th><th class=\"align-right\">pH</th></tr></thead>"
                + "<tbody><tr><td class=\"align-left\">HCl</td><td class=\"align-right\">1</td></tr>"
                + "<tr><td class=\"align-left\">Wasser</td><td class=\"align-right\"></td></tr></tbody></table>")
        #expect(
            RichText.html("$$\n\\int_0^1 x\\,dx = \\frac{1}{2}\n$$")
                == "<div class=\"math math-display\">\\int_0^1 x\\,dx = \\frac{1}{2}</div>")
        // A pipe in running text is no table without its rule line.
        #expect(RichText.html("a | b") == "<p>a | b</p>")
    }

    @Test("no markup of a source survives: HTML, attributes and script URLs are text")
    func hostileSources() {
        let payloads = [
            "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "\"><svg onload=alert(1)>",
            "[x](javascript:alert(1))", "**<b onmouseover=alert(1)>x</b>**", "$\\href{javascript:alert(1)}{x}$",
            "| <script> |\n|---|\n| <img src=x onerror=alert(1)> |", "```\n</code></pre><script>alert(1)</script>\n```",
            "- <iframe src=javascript:alert(1)>", "&lt;script&gt;",
        ]
        for payload in payloads {
            let html = RichText.html(payload)
            #expect(!html.contains("<script"), "\(payload)")
            #expect(!html.contains("<img") && !html.contains("<svg") && !html.contains("<iframe"), "\(payload)")
            #expect(!html.contains("<b ") && !html.contains("\"><"), "\(payload)")
            // Only the writer's own tags appear.
            let tags = html.split(separator: "<").dropFirst().map { $0.prefix(while: { $0 != ">" && $0 != " " }) }
            let allowed: Set<Substring> = [
                "p", "/p", "br", "strong", "/strong", "em", "/em", "code", "/code", "pre", "/pre", "ul", "/ul", "ol",
                "/ol", "li", "/li", "table", "/table", "thead", "/thead", "tbody", "/tbody", "tr", "/tr", "th", "/th",
                "td", "/td", "span", "/span", "div", "/div",
            ]
            #expect(tags.allSatisfy(allowed.contains), "\(payload): \(html)")
        }
        #expect(RichText.html("&lt;script&gt;") == "<p>&amp;lt;script&amp;gt;</p>")
    }

    @Test("plain text drops the markers and keeps the words")
    func plain() {
        #expect(RichText.plainText("**Mitose** ist *Kernteilung*") == "Mitose ist Kernteilung")
        #expect(RichText.plainText("- Apfel\n- Birne") == "- Apfel\n- Birne")
        #expect(RichText.plainText("1. eins\n1. zwei") == "1. eins\n2. zwei")
        #expect(RichText.plainText("| A | B |\n|---|---|\n| 1 | 2 |") == "A | B\n1 | 2")
        #expect(RichText.plainText("Energie: $E = mc^2$") == "Energie: E = mc^2")
        #expect(RichText.plainText("Eins\n\n$$x^2$$") == "Eins\n\nx^2")
        #expect(RichText.plainText("snake_case") == "snake_case")
        #expect(RichText.plainText("") == "")
    }

    @Test("lone markers in long texts stay fast and stay text")
    func pathological() {
        let text = String(repeating: "*a _b $c ", count: 4_000)
        let html = RichText.html(text)
        #expect(html.hasPrefix("<p>*a _b $c *a"))
        #expect(!html.contains("<em>") && !html.contains("<code>"))
    }

    static let imageId = "0f8e2b1c-3d4a-4b5c-8d6e-7f8091a2b3c4"

    @Test("an image of this server: only ![description](image:<uuid>) and nothing else")
    func images() {
        let id = Self.imageId
        #expect(
            RichText.html("Zelle: ![Eine *Zelle*](image:\(id))")
                == "<p>Zelle: <img class=\"card-image\" data-image=\"\(id)\" alt=\"Eine *Zelle*\"></p>")
        // Upper case ids are read as the same image.
        #expect(RichText.imageIds("![](image:\(id.uppercased()))") == [id])
        // An escaped bracket belongs to the description; quotes in it are escaped.
        #expect(
            RichText.html("![a \\] \"b\"](image:\(id))")
                == "<p><img class=\"card-image\" data-image=\"\(id)\" alt=\"a ] &quot;b&quot;\"></p>")
        // Not our images: any other target stays text, and so does an image in code.
        for source in [
            "![x](https://example.com/a.png)", "![x](image:\(id.dropLast()))", "![x](image:\(id)",
            "![x](image:\(id) \"title\")", "![x]\n(image:\(id))", "![x\ny](image:\(id))",
            "![x](image:\(id.replacingOccurrences(of: "-", with: "")))", "!\\[x](image:\(id))",
        ] {
            #expect(!RichText.html(source).contains("<img"), "\(source)")
            #expect(RichText.imageIds(source).isEmpty, "\(source)")
        }
        #expect(RichText.imageIds("`![x](image:\(id))`").isEmpty)
        #expect(RichText.imageIds("- ![](image:\(id))\n\n| ![](image:\(id)) |\n|---|") == [id])
        // Plain text (the original API) shows the description, or says there is a picture.
        #expect(RichText.plainText("Siehe ![Mitose](image:\(id))") == "Siehe Mitose")
        #expect(RichText.plainText("![](image:\(id))") == "[Bild]")
        // What a learner types or picks leaves images out, unless they are all there is.
        #expect(CardFormat.markdown.answerText("Die **Anaphase** ![Bild 2](image:\(id)) eben") == "Die Anaphase eben")
        #expect(CardFormat.markdown.answerText("![Mitose](image:\(id))") == "Mitose")
        #expect(CardFormat.plain.answerText("![Mitose](image:\(id))") == "![Mitose](image:\(id))")
        #expect(
            CardSides(kind: .basic, variant: 0, question: "?", answer: "Zelle ![](image:\(id))", format: .markdown)
                .expected == "Zelle")
        // Anki's fields: a file name, or the description when there is no file.
        #expect(
            RichText.html("![\"x\"](image:\(id))", imageFile: { $0 == id ? "\($0).jpg" : nil })
                == "<p><img src=\"\(id).jpg\" alt=\"&quot;x&quot;\"></p>")
        #expect(RichText.html("![Zelle](image:\(id))", imageFile: { _ in nil }) == "<p>Zelle</p>")
    }

    @Test("the Markdown written for an image reads back as that image and description")
    func imageMarkdown() {
        let description = "a [b] \\ c\nd"
        let markdown = RichText.imageMarkdown(id: Self.imageId.uppercased(), description: description)
        #expect(RichText.parse(markdown) == [.paragraph([.image(id: Self.imageId, alt: "a [b] \\ c d")])])
    }

    @Test("escaped plain text shows literally: every marker, list starts, tables, fences and image syntax")
    func escapedText() {
        let texts = [
            "Preis: 5 $ und $x$, **fett**, *schräg*, _unter_, `code`, a | b, C:\\Pfad\\datei",
            "- keine Liste\n+ auch nicht\n* nein\n1. keine Nummer\n2024. Jahr", "| A | B |\n|---|---|\n| 1 | 2 |",
            "```\nkein Code\n```", "$$\nx^2\n$$", "![Bild](image:0b4e7a0c-4e4b-4f06-8a4c-1b7e6f6e2a55)",
            "Eins\n\nZwei\nDrei", "#Hashtag 3.5 -5 +1 a-b", "[…] und [Hinweis]", "\\*", "",
        ]
        for text in texts {
            let source = RichText.escaped(text)
            #expect(RichText.plainText(source) == text, "\(source)")
            #expect(RichText.imageIds(source).isEmpty)
            for block in RichText.parse(source) {
                guard case .paragraph(let inlines) = block else {
                    Issue.record("\(text): \(block)")
                    continue
                }
                for inline in inlines {
                    switch inline {
                    case .text, .lineBreak: break
                    default: Issue.record("\(text): \(inline)")
                    }
                }
            }
        }
        // A number's `)` cannot be escaped: the space after it becomes a no-break space.
        #expect(RichText.escaped("1) eins") == "1)\u{00A0}eins")
        #expect(RichText.html(RichText.escaped("1) eins")) == "<p>1)\u{00A0}eins</p>")
        #expect(RichText.escaped("Zelle.\r\n- a") == "Zelle.\n\\- a")
    }
}
