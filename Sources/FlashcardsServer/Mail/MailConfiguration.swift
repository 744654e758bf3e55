import Foundation

/// How the server sends mail (`FLASHCARDS_SMTP_*`): one SMTP server it hands every message to.
/// Absent (no `FLASHCARDS_SMTP_HOST`), features that need mail say they are unavailable.
public struct MailConfiguration: Sendable, Equatable {
    /// How the connection to the SMTP server is protected (`FLASHCARDS_SMTP_TLS`).
    public enum Security: String, Sendable, CaseIterable {
        /// Plain SMTP (for a relay on the same machine or network).
        case none
        /// Plain connection upgraded with `STARTTLS` before anything else is sent; a server that
        /// does not offer it is an error, never a silent fallback to plain text.
        case starttls
        /// TLS from the first byte ("implicit TLS", usually port 465).
        case tls

        /// The usual port for the mode.
        var defaultPort: Int {
            switch self {
            case .none: 25
            case .starttls: 587
            case .tls: 465
            }
        }
    }

    /// The SMTP server's host name or address (`FLASHCARDS_SMTP_HOST`).
    public var host: String
    /// Its port (`FLASHCARDS_SMTP_PORT`; default by mode: 25, 587 or 465).
    public var port: Int
    /// Connection protection (`FLASHCARDS_SMTP_TLS`: `none`, `starttls` (default) or `tls`).
    public var security: Security
    /// Login for `AUTH PLAIN`/`AUTH LOGIN` (`FLASHCARDS_SMTP_USERNAME`, `FLASHCARDS_SMTP_PASSWORD`).
    public var username: String?
    /// The login's password; sent only over TLS, or to a server on this machine.
    public var password: String?
    /// The sender (`FLASHCARDS_SMTP_FROM`: `noreply@example.org` or `Smart Flashcards <noreply@example.org>`).
    public var sender: MailAddress
    /// A PEM file of certificates to trust instead of the system's (`FLASHCARDS_SMTP_CA_FILE`),
    /// for a relay with a certificate of its own authority.
    public var caFile: String?
    /// Seconds to wait for the connection and for each answer (`FLASHCARDS_SMTP_TIMEOUT_SECONDS`).
    public var timeoutSeconds: Int
    /// The name the server introduces itself with in `EHLO` (`FLASHCARDS_SMTP_HELO`; default the
    /// public URL's host).
    public var heloName: String

    /// A configuration with the given values.
    public init(
        host: String, port: Int? = nil, security: Security = .starttls, username: String? = nil,
        password: String? = nil, sender: MailAddress, caFile: String? = nil, timeoutSeconds: Int = 30,
        heloName: String = "localhost"
    ) {
        self.host = host
        self.port = port ?? security.defaultPort
        self.security = security
        self.username = username
        self.password = password
        self.sender = sender
        self.caFile = caFile
        self.timeoutSeconds = timeoutSeconds
        self.heloName = heloName
    }

    /// Reads the `FLASHCARDS_SMTP_*` keys; nil when no host is set (and no other SMTP key either).
    static func load(from values: [String: String], publicURL: URL?) throws -> MailConfiguration? {
        func string(_ key: String) -> String? {
            guard let value = values[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        let keys = [
            "FLASHCARDS_SMTP_PORT", "FLASHCARDS_SMTP_TLS", "FLASHCARDS_SMTP_USERNAME", "FLASHCARDS_SMTP_PASSWORD",
            "FLASHCARDS_SMTP_FROM", "FLASHCARDS_SMTP_CA_FILE", "FLASHCARDS_SMTP_TIMEOUT_SECONDS",
            "FLASHCARDS_SMTP_HELO",
        ]
        guard let host = string("FLASHCARDS_SMTP_HOST") else {
            if let stray = keys.first(where: { string($0) != nil }) {
                throw ConfigurationError("\(stray) is set but FLASHCARDS_SMTP_HOST is not")
            }
            return nil
        }
        guard let publicURL else {
            throw ConfigurationError(
                "FLASHCARDS_PUBLIC_URL must be set when FLASHCARDS_SMTP_HOST is (mailed links point to it)")
        }
        var security = Security.starttls
        if let text = string("FLASHCARDS_SMTP_TLS") {
            guard let mode = Security(rawValue: text.lowercased()) else {
                throw ConfigurationError("FLASHCARDS_SMTP_TLS must be none, starttls or tls")
            }
            security = mode
        }
        var port = security.defaultPort
        if let text = string("FLASHCARDS_SMTP_PORT") {
            guard let value = Int(text), (1...65_535).contains(value) else {
                throw ConfigurationError("FLASHCARDS_SMTP_PORT must be a whole number from 1 to 65535, got '\(text)'")
            }
            port = value
        }
        guard let senderText = string("FLASHCARDS_SMTP_FROM") else {
            throw ConfigurationError(
                "FLASHCARDS_SMTP_FROM (the sender address) must be set when FLASHCARDS_SMTP_HOST is")
        }
        guard let sender = MailAddress(parsing: senderText) else {
            throw ConfigurationError(
                "FLASHCARDS_SMTP_FROM must be an address like noreply@example.org or Name <noreply@example.org>")
        }
        let username = string("FLASHCARDS_SMTP_USERNAME")
        let password = values["FLASHCARDS_SMTP_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        guard (username == nil) == (password == nil) else {
            throw ConfigurationError("FLASHCARDS_SMTP_USERNAME and FLASHCARDS_SMTP_PASSWORD must be set together")
        }
        if password != nil, security == .none, !Self.isLoopback(host) {
            throw ConfigurationError(
                "FLASHCARDS_SMTP_PASSWORD is only sent over TLS: set FLASHCARDS_SMTP_TLS to starttls or tls")
        }
        let caFile = string("FLASHCARDS_SMTP_CA_FILE")
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ConfigurationError("FLASHCARDS_SMTP_CA_FILE '\(caFile)' is not a readable file")
        }
        if caFile != nil, security == .none {
            throw ConfigurationError("FLASHCARDS_SMTP_CA_FILE needs FLASHCARDS_SMTP_TLS starttls or tls")
        }
        var timeout = 30
        if let text = string("FLASHCARDS_SMTP_TIMEOUT_SECONDS") {
            guard let value = Int(text), (1...600).contains(value) else {
                throw ConfigurationError("FLASHCARDS_SMTP_TIMEOUT_SECONDS must be a whole number from 1 to 600")
            }
            timeout = value
        }
        let helo = string("FLASHCARDS_SMTP_HELO") ?? publicURL.host ?? "localhost"
        guard helo.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }) else {
            throw ConfigurationError("FLASHCARDS_SMTP_HELO must be a host name")
        }
        return MailConfiguration(
            host: host, port: port, security: security, username: username, password: password, sender: sender,
            caFile: caFile, timeoutSeconds: timeout, heloName: helo)
    }

    /// Whether `host` names this machine, where a plain connection never leaves it.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}

/// A mail address with an optional display name.
public struct MailAddress: Sendable, Equatable, CustomStringConvertible {
    /// The display name, if any (`Smart Flashcards`).
    public var name: String?
    /// The address itself (`noreply@example.org`).
    public var address: String

    /// An address; nil when it could not be used in an SMTP envelope (no single `@`, spaces,
    /// angle brackets, control characters).
    public init?(_ address: String, name: String? = nil) {
        guard Self.isUsable(address) else { return nil }
        if let name, name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return nil }
        self.address = address
        self.name = name.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Parses `address` or `Name <address>` (the name may be in double quotes).
    public init?(parsing text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let open = text.lastIndex(of: "<"), text.hasSuffix(">") {
            let address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            var name = text[..<open].trimmingCharacters(in: .whitespaces)
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
                name = String(name.dropFirst().dropLast())
            }
            self.init(address, name: name)
        } else {
            self.init(text)
        }
    }

    /// `Name <address>` or the address alone.
    public var description: String { name.map { "\($0) <\(address)>" } ?? address }

    /// The part after the `@`.
    var domain: Substring { address[address.index(after: address.lastIndex(of: "@")!)...] }

    /// Whether the address is ASCII (otherwise the SMTP server must offer `SMTPUTF8`).
    var isASCII: Bool { address.allSatisfy(\.isASCII) }

    private static func isUsable(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, address.utf8.count <= 254 else { return false }
        return !address.unicodeScalars.contains { scalar in
            scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                || "<>()[],;:\\\"".unicodeScalars.contains(scalar)
        }
    }
}
