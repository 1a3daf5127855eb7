import AIBudsFoundation
import Foundation

/// The device's Wi-Fi hotspot and its media transfer mode (docs/protocol.md, Hotspot group).
public protocol DeviceHotspotAPI: DeviceAPI {
    /// The last known hotspot state; updated by the device's `hotspotState` events.
    var hotspotState: HotspotState { get }

    /// Configures the hotspot; returns the device's status code.
    func configureHotspot(withMode mode: HotspotMode, channel: Int, ssid: String, password: String)
        async throws -> NSNumber?
    /// Asks the device to enter media transfer mode; the hotspot opens some time later.
    func enterFileTransferMode() async throws
    /// Asks the device to leave media transfer mode, closing the data plane.
    func leaveFileTransferMode() async throws
    /// Asks the device to end the data-plane transfers in flight (the app cancelled its import);
    /// the device stays in transfer mode with the same hotspot and token.
    func cancelFileTransfer() async throws
    /// Reads the hotspot state with its SSID, data-plane URL and session token.
    func requestQueryHotspotStatus() async throws -> HotspotStatusInfo
}

extension DeviceHotspotAPI {
    /// Sets the Wi-Fi network the device opens in transfer mode (mode, channel, network name,
    /// passphrase); the completion gets the device's status code.
    public func configureHotspot(
        withMode mode: HotspotMode, channel: Int, ssid: String, password: String,
        completion: AIBudsStatusCodeCompletionHandler?
    ) {
        AIBudsCall.run(completion) {
            try await self.configureHotspot(withMode: mode, channel: channel, ssid: ssid, password: password)
        }
    }
}
