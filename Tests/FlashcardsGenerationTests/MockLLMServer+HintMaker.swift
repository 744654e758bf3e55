import FlashcardsTestServer

@testable import FlashcardsGeneration

extension MockLLMServer {
    /// A model hint maker that asks this server once, without retries.
    var hintMaker: ModelHintMaker {
        ModelHintMaker(
            client: ChatCompletionClient(
                configuration: LLMConfiguration(
                    baseURL: baseURL, model: "m", requestTimeoutSeconds: 5, maximumRetries: 0),
                memory: ResponseFormatMemory()))
    }
}
