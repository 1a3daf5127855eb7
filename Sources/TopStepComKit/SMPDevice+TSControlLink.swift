import AIBuds
import AIBudsSMP
import AIBudsSMPClient

/// The SMP plugin's devices hand the TopStep facade their SMP client and reported capabilities.
extension SMPDevice: TSControlLinkDevice {
    /// The SMP client of the current connection; nil while the device is not ready.
    public var controlLinkClient: SMPClient? { smpClient }
    /// The capability names the device reported in its Device `info`.
    public var controlLinkCapabilities: [String] { capabilities.map(\.rawValue).sorted() }
}
