import AIBudsDBus
import Foundation

extension Emulator {
    /// Serves the device over a BlueZ stand-in on the D-Bus bus at `bus` instead of UDP: registers
    /// `org.bluez` there with one adapter and this device (docs/emulator.md), opens the hotspot and
    /// starts recordings and digest indexing as ``start()`` does; writes no UDP announcement.
    ///
    /// - Returns: the stand-in, whose fault methods a test may call; ``stop()`` stops it.
    @discardableResult
    public func startBlueZ(bus: String, options: BlueZStandIn.Options = BlueZStandIn.Options()) async throws -> BlueZStandIn {
        let standIn = BlueZStandIn(handler: handler, link: configuration.link, options: options, logger: logger)
        try await standIn.start(bus: bus)
        bluez.withLock { $0 = standIn }
        if configuration.hotspotOpen {
            try device.openHotspotNow(ssid: "\(configuration.deviceName) transfer", password: "aibuds-transfer")
        }
        if let interval = configuration.recordEvery { device.startPeriodicRecordings(every: interval) }
        if configuration.listsDigests { device.store.startIndexingDigests() }
        return standIn
    }

    /// The BlueZ stand-in while the device is served over D-Bus.
    public var blueZStandIn: BlueZStandIn? { bluez.withLock { $0 } }
}
