import AIBuds
import AIBudsFoundation
import AIBudsSync
import Foundation

/// Records delegate callbacks in order, each with the device it is about (none for scanning).
///
/// As the SDK-wide delegate it hears every device of the process, other tests' included: a test
/// asserts on ``events(of:)`` of its own device, and on ``scanEvents``.
public final class EventRecorder: SDKDelegate, DeviceDelegate {
    /// Creates a recorder that has heard nothing.
    public init() {}

    private let log = Locked<[(device: UUID?, event: String)]>([])
    /// Every event, in order.
    public var events: [String] { log.withLock { $0.map(\.event) } }
    /// The events about `device`, in order.
    public func events(of device: any DeviceConvertible) -> [String] {
        log.withLock { $0.filter { $0.device == device.uuid }.map(\.event) }
    }
    /// The scanning events, in order.
    public var scanEvents: [String] { log.withLock { $0.filter { $0.device == nil }.map(\.event) } }
    /// Adds `event` about `device` (none: a scanning event).
    public func record(_ event: String, _ device: (any DeviceConvertible)? = nil) {
        log.withLock { $0.append((device?.uuid, event)) }
    }
    /// Forgets every event.
    public func removeAll() { log.withLock { $0.removeAll() } }

    /// Records `scanning …` as the event.
    public func onScanningStatusChanged(_ isScanning: Bool) { record("scanning \(isScanning)") }
    /// Records `connecting …` as the event.
    public func didStartConnectingDevice(_ device: any DeviceConvertible) { record("connecting", device) }
    /// Records `connected …` as the event.
    public func didConnectedToDevice(_ device: any DeviceConvertible) { record("connected", device) }
    /// Records `failed …` as the event.
    public func didFailToConnectDevice(_ device: any DeviceConvertible, error: NSError?) {
        record("failed \(error?.code ?? 0)", device)
    }
    /// Records `disconnected …` as the event.
    public func device(_ device: any DeviceConvertible, didDisconnectWithError error: NSError?) {
        record("disconnected \(error?.code ?? 0)", device)
    }
    /// Records `ready …` as the event.
    public func deviceDidReady(_ device: any DeviceConvertible) { record("ready", device) }
    /// Records `battery …` as the event.
    public func device(_ device: any DeviceConvertible, didBatteryStatusChanged status: BatteryStatusInfoModel) {
        record("battery \(status.level)", device)
    }
    /// Records `workState …` as the event.
    public func device(_ device: any DeviceConvertible, didWorkStateChanged state: WorkState) { record("workState \(state)", device) }
    /// Records `mediaCount …` as the event.
    public func device(_ device: any DeviceConvertible, didMediaCountInfoChanged info: MediaCountInfoModel) {
        record("mediaCount \(info)", device)
    }
}
