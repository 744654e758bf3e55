#if canImport(Security)
    import FlashcardsAPI
    import FlashcardsAppCore
    import Foundation
    import Security

    /// The session's token in the Keychain (this device only, after the first unlock).
    public struct KeychainTokenStore: TokenStore {
        private let service = "smart-flashcards.session"

        /// Creates the store.
        public init() {}

        private var query: [String: Any] {
            [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        }

        public func load() -> StoredSession? {
            var query = self.query
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var item: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess, let data = item as? Data
            else { return nil }
            return try? FlashcardsJSON.makeDecoder().decode(StoredSession.self, from: data)
        }

        public func save(_ session: StoredSession) throws {
            try clear()
            var item = query
            item[kSecValueData as String] = try FlashcardsJSON.makeEncoder().encode(session)
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            let status = SecItemAdd(item as CFDictionary, nil)
            guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        }

        public func clear() throws {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw NSError(domain: NSOSStatusErrorDomain, code: Int(status))
            }
        }
    }
#endif
