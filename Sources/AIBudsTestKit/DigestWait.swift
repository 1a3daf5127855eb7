import AIBudsEmulator

/// Waits until every file `store` lists has its SHA-256 (an emulator hashes its files in the
/// background after it starts); throws when that takes longer than `timeout`.
public func waitUntilDigestsListed(_ store: MediaStore, timeout: Duration = .seconds(20)) async throws {
    let deadline = ContinuousClock.now + timeout
    while store.list().contains(where: { $0.sha256 == nil }) {
        guard ContinuousClock.now < deadline else {
            throw DigestWaitTimeout(timeout: timeout)
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// The emulator's store still lacked digests when `waitUntilDigestsListed` gave up.
public struct DigestWaitTimeout: Error, CustomStringConvertible {
    /// How long the wait lasted.
    public let timeout: Duration
    /// Says so.
    public var description: String { "the emulator did not hash its files within \(timeout)" }
}
