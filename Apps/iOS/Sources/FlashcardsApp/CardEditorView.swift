#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

    /// Writing a card: fields, the rich-text option with the server's preview, saving.
    struct CardEditorView: View {
        @State var model: CardEditorModel
        @State private var photo: PhotosPickerItem?
        @Environment(\.dismiss) private var dismiss

        var body: some View {
            Form {
                Section("Vorderseite") { TextField("Frage", text: $model.question, axis: .vertical) }
                Section("Rückseite") { TextField("Antwort", text: $model.answer, axis: .vertical) }
                Section("Hinweis (optional)") { TextField("Hinweis", text: $model.hint, axis: .vertical) }
                // A photo from the library (the camera's pictures included) goes onto the back.
                PhotosPicker("Bild zur Rückseite hinzufügen", selection: $photo, matching: .images)
                    .onChange(of: photo) { _, item in
                        guard let item else { return }
                        Task {
                            if let data = try? await item.loadTransferable(type: Data.self) {
                                await model.insertImage(data, on: .answer)
                            }
                            photo = nil
                        }
                    }
                Toggle("Formatierung und Formeln", isOn: $model.isRich)
                if model.isRich, let preview = model.preview {
                    Section("Vorschau") {
                        // The server's sanitised HTML (formulas stay as their source here).
                        Text(Self.attributed(preview.question))
                        Text(Self.attributed(preview.answer))
                    }
                }
                if let message = model.errorMessage { Text(message).foregroundStyle(.red) }
                Button("Speichern") {
                    Task { if await model.save(), model.card != nil { dismiss() } }
                }
                .environment(\.isEnabled, !(model.isWorking || model.problem != nil))
            }
            .task(id: "\(model.isRich)\(model.question)\(model.answer)") { await model.updatePreview() }
        }

        /// Styled text of the server's sanitised HTML; the plain source when it does not parse.
        static func attributed(_ html: String) -> AttributedString {
            guard let data = html.data(using: .utf8),
                let text = try? NSAttributedString(
                    data: data,
                    options: [
                        .documentType: NSAttributedString.DocumentType.html,
                        .characterEncoding: String.Encoding.utf8.rawValue,
                    ],
                    documentAttributes: nil)
            else { return AttributedString(html) }
            return AttributedString(text)
        }
    }
#endif
