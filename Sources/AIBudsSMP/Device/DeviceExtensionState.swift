import AIBudsSync

/// State that a module adding a capability to the SMP devices by extension keeps per device, since
/// an extension cannot store anything: one object per type, made on first use, living as long as
/// the device object (across its reconnections). AIBudsSMPAudio keeps each device's AI audio path
/// (its open microphone stream and whether the speaker is playing) here.
package final class DeviceExtensionState: Sendable {
    private let objects = Locked<[ObjectIdentifier: any AnyObject & Sendable]>([:])

    /// An empty slot; `SMPDevice` makes one per device.
    package init() {}

    /// The device's object of type `type`: the one made before, or made now by `make`.
    package func object<Object: AnyObject & Sendable>(_ type: Object.Type, orMake make: () -> Object) -> Object {
        objects.withLock { objects in
            let key = ObjectIdentifier(type)
            if let existing = objects[key] as? Object { return existing }
            let made = make()
            objects[key] = made
            return made
        }
    }
}
