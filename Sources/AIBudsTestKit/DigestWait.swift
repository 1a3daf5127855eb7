import AIBudsEmulator

/// Waits until every file `store` lists has its SHA-256 (an emulator hashes its files in the
/// background after it starts); throws ``EventuallyTimeout`` when that takes longer than `timeout`.
public func waitUntilDigestsListed(_ store: MediaStore, timeout: Duration = .seconds(60)) async throws {
    try await eventually("the emulator to hash its files", timeout: timeout) {
        !store.list().contains(where: { $0.sha256 == nil })
    }
}
