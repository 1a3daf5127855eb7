import AIBuds
import AIBudsLog

/// A link plugin that carries SMP over a link of its own (Bluetooth LE through BlueZ): the SMP
/// device classes ask it for a session when their peripheral's address is not `udp://`.
public protocol SMPSessionOpener: BleConnectSDK {
    /// Connects to `peripheral` and returns an SMP session over the link, before any request
    /// (the device checks the identity itself).
    func openSMPSession(to peripheral: Peripheral, logger: any LogService) async throws -> SMPDeviceSession
}
