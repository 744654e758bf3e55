import FlashcardsAPI
import Foundation
import Vapor

/// `/api/v1/auth/oidc/*` and `/api/v1/me/identities*`: sign-in with OpenID Connect (docs/oidc.md).
/// The start and the callback are browser navigations: they answer with redirects, errors included
/// (to the web app's login page with `oidcError=<reason>`).
struct OIDCRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.on(Endpoint.V1.oidcProviders, use: providers)
        routes.on(Endpoint.V1.oidcStart, use: start)
        routes.on(Endpoint.V1.oidcCallback, use: callback)
        routes.on(Endpoint.V1.oidcCallbackPost, use: callback)
        routes.on(Endpoint.V1.oidcSession, use: session)
        routes.on(Endpoint.V1.oidcLink, use: link)
        let session = routes.grouped(RequireUserMiddleware(personalTokens: .refused))
        session.on(Endpoint.V1.identities, use: identities)
        session.on(Endpoint.V1.unlinkIdentity, use: unlink)
    }

    private func service(_ req: Request) throws -> OIDCService {
        guard let publicURL = req.application.appConfiguration.publicURL else {
            throw AppError.notFound(
                "Diese Anmeldung ist auf diesem Server nicht eingerichtet.", code: "oidc_provider_unknown")
        }
        return OIDCService(context: ServiceContext(req), clients: req.application.oidcClients, publicURL: publicURL)
    }

    func providers(_ req: Request) async throws -> Response {
        struct Provider: Encodable {
            let id: String
            let name: String
        }
        struct Providers: Encodable { let providers: [Provider] }
        return try jsonResponse(
            Providers(providers: req.application.appConfiguration.oidcProviders.map { .init(id: $0.id, name: $0.name) })
        )
    }

    func start(_ req: Request) async throws -> Response {
        let provider = req.parameters.get("provider") ?? ""
        do {
            return req.redirect(to: try await service(req).start(provider: provider), redirectType: .normal)
        } catch let failure as OIDCFailure {
            return webLogin(req, ["oidcError": failure.rawValue])
        } catch let error as AppError where error.status == .notFound {
            return webLogin(req, ["oidcError": "provider_unknown"])
        }
    }

    func callback(_ req: Request) async throws -> Response {
        struct Parameters: Content {
            var code: String?
            var state: String?
            var error: String?
            var user: String?
        }
        let provider = req.parameters.get("provider") ?? ""
        let parameters =
            req.method == .POST
            ? (try? req.content.decode(Parameters.self, as: .urlEncodedForm)) ?? Parameters()
            : (try? req.query.decode(Parameters.self)) ?? Parameters()
        do {
            let code = try await service(req).finish(
                provider: provider, code: parameters.code, state: parameters.state, error: parameters.error,
                appleUser: parameters.user)
            return webLogin(req, ["oidc": code])
        } catch let failure as OIDCFailure {
            req.logger.notice("sign-in with \(provider) refused: \(failure.rawValue)")
            return webLogin(req, ["oidcError": failure.rawValue])
        } catch let error as AppError where error.status == .notFound {
            return webLogin(req, ["oidcError": "provider_unknown"])
        }
    }

    func session(_ req: Request) async throws -> Response {
        struct Body: Decodable { let code: String }
        let body = try req.decodeBody(Body.self)
        let outcome = try await refusing { try await service(req).session(code: body.code) }
        switch outcome {
        case .signedIn(let user):
            return try await authResponse(for: user, req: req)
        case .linkRequired(let mail, let provider):
            struct LinkRequired: Encodable {
                let message: String
                let code: String
                let mail: String
                let provider: String
            }
            return try jsonResponse(
                LinkRequired(
                    message:
                        "Zu dieser E-Mail-Adresse gibt es schon ein Konto. Gib sein Passwort ein, um die Anmeldung damit zu verbinden.",
                    code: "oidc_link_required", mail: mail, provider: provider),
                status: .conflict)
        }
    }

    func link(_ req: Request) async throws -> Response {
        struct Body: Decodable {
            let code: String
            let password: String
        }
        let body = try req.decodeBody(Body.self)
        let user = try await refusing { try await service(req).link(code: body.code, password: body.password) }
        return try await authResponse(for: user, req: req)
    }

    func identities(_ req: Request) async throws -> Response {
        struct Identity: Encodable {
            let provider: String
            let name: String
            let mail: String?
            let linkedAt: Date
        }
        struct Identities: Encodable {
            let identities: [Identity]
            let passwordSet: Bool
        }
        let user = try req.user
        let store = req.studyStore.identities
        let names = Dictionary(
            req.application.appConfiguration.oidcProviders.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let linked = try await store.identities(of: try user.requireID())
        return try jsonResponse(
            Identities(
                identities: linked.map {
                    Identity(
                        provider: $0.provider, name: names[$0.provider] ?? $0.provider, mail: $0.mail,
                        linkedAt: $0.created_at)
                },
                passwordSet: user.passwordSet))
    }

    func unlink(_ req: Request) async throws -> Response {
        let user = try req.user
        let provider = req.parameters.get("provider") ?? ""
        let store = req.studyStore.identities
        guard user.passwordSet else {
            throw AppError.refused(
                "Lege zuerst ein Passwort fest (in den Einstellungen unter „Passwort festlegen“), sonst kannst du dich nach dem Trennen nicht mehr anmelden.",
                code: "password_required")
        }
        guard try await store.unlink(try user.requireID(), provider: provider) else {
            throw AppError.notFound("Diese Anmeldung ist nicht mit deinem Konto verbunden.", code: "identity_not_found")
        }
        return Response(status: .noContent)
    }

    /// A code that finds no finished sign-in (unknown, used, expired) is a 401, like a spent reset link.
    private func refusing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch is OIDCFailure {
            throw AppError.invalidSignIn
        }
    }

    /// A redirect to the web app's login page with the outcome in its query.
    private func webLogin(_ req: Request, _ items: [String: String]) -> Response {
        var components = URLComponents()
        components.path = "/app/login"
        components.queryItems = items.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return req.redirect(to: components.string ?? "/app/login", redirectType: .normal)
    }
}

extension Application {
    private struct OIDCClientsKey: StorageKey { typealias Value = [String: OIDCProviderClient] }

    /// One client per configured provider, with its cached discovery and keys.
    var oidcClients: [String: OIDCProviderClient] {
        get { storage[OIDCClientsKey.self] ?? [:] }
        set { storage[OIDCClientsKey.self] = newValue }
    }
}
