import AIBuds
import AIBudsSync

/// The media import engine a device owns, created on first use with the SDK's logger.
///
/// A device class stores one and returns ``engine(for:)`` of itself as its
/// ``MediaImportEngineProvider/mediaImport``: one engine per device, living as long as the device
/// (the engine holds the device weakly, so there is no cycle).
public final class LazyMediaImportEngine: Sendable {
    private let engine = Locked<MediaImportEngine?>(nil)

    /// Creates an empty slot; the engine is made on the first ``engine(for:)``.
    public init() {}

    /// The engine of `channel`, made on the first call; later calls return the same engine.
    public func engine(for channel: any MediaImportControlChannel) -> MediaImportEngine {
        engine.withLock { engine in
            if let engine { return engine }
            let made = MediaImportEngine(channel: channel, logger: AIBudsSDK.logger)
            engine = made
            return made
        }
    }
}
