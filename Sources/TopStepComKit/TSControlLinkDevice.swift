import AIBuds
import AIBudsSMP
import AIBudsSMPClient

/// A device whose control link is SMP: it hands the TopStep facade the SMP client of its current
/// connection. The SMP plugin's device classes conform; the facade needs nothing else from a device.
public protocol TSControlLinkDevice: DeviceConvertible {
    /// The SMP client of the current connection; nil while the device is not connected.
    var controlLinkClient: SMPClient? { get }
    /// The capability names the device reported in its Device `info`.
    var controlLinkCapabilities: [String] { get }
}
