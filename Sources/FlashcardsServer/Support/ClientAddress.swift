import Foundation

/// An address range: one IPv4 or IPv6 address, or a CIDR block (`10.0.0.0/8`, `fd00::/8`).
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    let bytes: [UInt8]
    let prefix: Int

    /// Parses `192.0.2.1`, `192.0.2.0/24`, `::1` or `2001:db8::/32`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let bytes = ClientAddress.bytes(of: String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        if parts.count == 2 {
            guard let prefix = Int(parts[1]), (0...bits).contains(prefix) else { return nil }
            self.prefix = prefix
        } else {
            self.prefix = bits
        }
        self.bytes = bytes
    }

    /// Whether `address` (already parsed) lies in the range.
    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        var left = prefix
        for index in bytes.indices where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            guard address[index] & mask == bytes[index] & mask else { return false }
            left -= 8
        }
        return true
    }

    public var description: String {
        let address =
            bytes.count == 4
            ? bytes.map(String.init).joined(separator: ".")
            : stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                .joined(separator: ":")
        return prefix == bytes.count * 8 ? address : "\(address)/\(prefix)"
    }
}

/// Who a request comes from: the connection's peer, or, when the peer is a trusted proxy
/// (`FLASHCARDS_TRUSTED_PROXIES`), the address the proxies recorded in `X-Forwarded-For`. Without
/// trusted proxies the header is never believed, so a client cannot escape the per-address limits
/// by writing it.
public enum ClientAddress {
    /// The client's address: the peer unless it is trusted; then the right-most address of
    /// `X-Forwarded-For` that is not a trusted proxy itself (the ones left of it are what the client
    /// wrote and prove nothing). All of them trusted: the left-most one.
    public static func resolve(peer: String?, forwardedFor: [String], trusted: [AddressRange]) -> String? {
        guard let peer, let peerBytes = bytes(of: peer), trusted.contains(where: { $0.contains(peerBytes) }) else {
            return peer
        }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var client: String?
        for hop in hops.reversed() {
            guard let hopBytes = bytes(of: hop) else { return client ?? peer }
            client = normalized(hopBytes)
            if !trusted.contains(where: { $0.contains(hopBytes) }) { return client }
        }
        return client ?? peer
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address (an IPv4-mapped IPv6 address as IPv4).
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return Array(bytes[12...])
        }
        return bytes
    }

    private static func normalized(_ bytes: [UInt8]) -> String {
        AddressRange(bytes: bytes).description
    }
}

extension AddressRange {
    fileprivate init(bytes: [UInt8]) {
        self.bytes = bytes
        self.prefix = bytes.count * 8
    }
}
