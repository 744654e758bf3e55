import FlashcardsAPI
import FlashcardsGeneration
import Vapor

/// `/api/v1/images`: card images in, and out to whoever may see a card showing them.
struct ImageRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.grouped(RequireUserMiddleware()).on(Endpoint.V1.uploadImage, body: .stream, use: upload)
        routes.grouped(RequireUserMiddleware(optional: true)).on(Endpoint.V1.image, use: image)
    }

    /// Multipart (`file`) from a form, or the image itself as the body (a pasted picture).
    func upload(_ req: Request) async throws -> Response {
        let user = try req.user
        let data: Data
        if req.headers.contentType?.type == "multipart" {
            data = try await MultipartForm.read(req, maximumFile: CardImageProcessor.maximumBytes).file
        } else {
            let body = try await req.collectBody(
                limit: CardImageProcessor.maximumBytes, tooLarge: ImageService.tooLarge)
            data = Data(buffer: body)
        }
        let image = try await ImageService(context: ServiceContext(req)).upload(data, for: user.id!)
        let response = try jsonResponse(image, status: .created)
        response.headers.replaceOrAdd(name: .location, value: "/api/v1/images/" + image.id.uuidString.lowercased())
        return response
    }

    /// The bytes, never cached by a shared cache; an image never changes, so a browser keeps it.
    func image(_ req: Request) async throws -> Response {
        let image = try await ImageService(context: ServiceContext(req)).image(
            req.parameters.get("imageId"), userId: req.optionalUser?.id, shareToken: req.queryText("share"))
        let response = Response(status: .ok, body: .init(buffer: image.data))
        response.headers.replaceOrAdd(name: .contentType, value: image.mediaType)
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=31536000, immutable")
        response.headers.replaceOrAdd(name: .contentDisposition, value: "inline")
        return response
    }
}
