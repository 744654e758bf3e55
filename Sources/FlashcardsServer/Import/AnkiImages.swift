import FlashcardsCore
import FlashcardsGeneration
import Foundation
import NIOCore

/// The images an Anki package's cards show (`<img src>` in a field or a template), kept as images
/// of the importing learner: each file read by its bytes (JPEG, PNG, GIF or WebP; SVG, sounds and
/// anything else are left out), re-encoded by `CardImageProcessor`, given a new id. A file that
/// cannot be read or re-encoded, or that no longer fits the learner's quota, is left out too: its
/// `<img>` becomes its description, and the import goes on.
enum AnkiImages {
    /// The most image files one import keeps.
    static let maximumCount = 500
    /// How many files are re-encoded at once.
    static let parallelism = 4

    /// An image file of the package.
    struct File: Sendable {
        let name: String
        let data: Data
    }

    /// The image files the package's cards name, in the order they are first named, that the
    /// package holds and whose bytes are an image of ours: at most `maximumCount`.
    static func files(of package: AnkiPackage) async -> [File] {
        var names: [String] = []
        var seen: Set<String> = []
        func collect(_ html: String) {
            guard html.range(of: "<img", options: .caseInsensitive) != nil else { return }
            for source in AnkiNotes.imageSources(AnkiNotes.html(html, images: true).text) {
                if let name = package.mediaFile(for: source), seen.insert(name).inserted { names.append(name) }
            }
        }
        for type in package.noteTypes.values.sorted(by: { $0.name < $1.name }) {
            for ord in type.templates.keys.sorted() {
                collect(type.templates[ord]?.question ?? "")
                collect(type.templates[ord]?.answer ?? "")
            }
        }
        for note in package.notes.values.sorted(by: { $0.id < $1.id }) { note.fields.forEach(collect) }
        var files: [File] = []
        for name in names {
            guard files.count < maximumCount else { break }
            guard let data = await package.mediaData(name, limit: CardImageProcessor.maximumBytes),
                ImageType.sniff(data) != nil
            else { continue }
            files.append(File(name: name, data: data))
        }
        return files
    }

    /// Placeholder ids for a preview: what the cards would be if every file comes through.
    static func previewIds(_ files: [File]) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: files.enumerated().map { index, file in
                (file.name, String(format: "00000000-0000-4000-8000-%012x", index))
            })
    }

    /// The files re-encoded as images of `userId`'s with new ids (file name → image), while
    /// `quotaLeft` bytes last; files that fail are left out.
    static func process(_ files: [File], userId: UUID, quotaLeft: Int, uuid: @Sendable () -> UUID) async -> [String:
        ImageService.Stored]
    {
        var processed: [Int: ProcessedImage] = [:]
        await withTaskGroup(of: (Int, ProcessedImage?).self) { group in
            var next = 0
            func add() {
                guard next < files.count else { return }
                let index = next
                let data = files[index].data
                group.addTask { (index, try? await CardImageProcessor.process(data)) }
                next += 1
            }
            for _ in 0..<parallelism { add() }
            while let (index, image) = await group.next() {
                if let image { processed[index] = image }
                add()
            }
        }
        var stored: [String: ImageService.Stored] = [:]
        var left = quotaLeft
        for (index, file) in files.enumerated() {
            guard let image = processed[index], image.data.count <= left else { continue }
            left -= image.data.count
            stored[file.name] = ImageService.Stored(
                id: uuid(), userId: userId, mediaType: image.type.mediaType, width: image.size.width,
                height: image.size.height, data: ByteBuffer(data: image.data))
        }
        return stored
    }
}
