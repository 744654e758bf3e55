import FlashcardsCLI
await FlashcardsCommand.main()
