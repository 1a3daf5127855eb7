import AIBudsFoundation
import AIBudsSync
import Foundation

/// A device that adopts ``MediaImportControlChannel`` gets every member of
/// ``DeviceMediaFileImportAPI`` from its engine (``MediaImportEngineProvider``).
extension MediaImportControlChannel {
    /// This device's media import engine (one per device, created on first use).
    public var mediaImport: MediaImportEngine { MediaImportEngines.engine(for: self) }
}

/// The engines of the devices that use one, held as long as their device lives.
///
/// A device class cannot add stored properties in an extension, so devices find their engine here.
public enum MediaImportEngines {
    private struct Entry: Sendable {
        weak var owner: (any MediaImportControlChannel)?
        let engine: MediaImportEngine
    }

    private static let table = Locked<[ObjectIdentifier: Entry]>([:])
    private static let makeEngine = Locked<@Sendable (any MediaImportControlChannel) -> MediaImportEngine>({
        MediaImportEngine(channel: $0, logger: AIBudsSDK.logger)
    })

    /// The engine of `channel`, created on first use.
    public static func engine(for channel: any MediaImportControlChannel) -> MediaImportEngine {
        let key = ObjectIdentifier(channel)
        if let engine = table.withLock({ table in table[key].flatMap { $0.owner === channel ? $0.engine : nil } }) {
            return engine
        }
        let made = makeEngine.withLock { $0 }(channel)
        return table.withLock { table in
            if let entry = table[key], entry.owner === channel { return entry.engine }
            table = table.filter { $0.value.owner != nil }
            table[key] = Entry(owner: channel, engine: made)
            return made
        }
    }

    /// Sets how engines are made for devices from now on (a logger, a configuration, a joiner);
    /// devices that already have one keep it.
    public static func setFactory(_ factory: @escaping @Sendable (any MediaImportControlChannel) -> MediaImportEngine) {
        makeEngine.withLock { $0 = factory }
    }
}
