// An app imports FlashcardsAppCore alone: the SDK's client and the wire types its models use come
// along.
@_exported import FlashcardsAPI
@_exported import FlashcardsClient
