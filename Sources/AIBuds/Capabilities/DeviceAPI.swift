/// The marker every capability protocol refines; a device class conforms to the capability protocols
/// its product supports.
public protocol DeviceAPI: AnyObject, Sendable {}
