import AIBuds
import AIBudsLog
import AIBudsSync

/// The TopStep SDK's entry point: one shared instance that binds to a device and offers its
/// features, for example `TopStepComKit.sharedInstance.mediaFile`.
public final class TopStepComKit: Sendable {
    /// The one kit of the process; its features (`mediaFile`, ...) share its state.
    public static let sharedInstance = TopStepComKit()

    /// The kit's mutable state, shared with its features.
    let state = KitState()
    /// The media file feature's implementation.
    let mediaFileService: TSMediaFileService

    /// The media file feature: list, download and delete the device's files, observe its lists.
    public var mediaFile: any TSMediaFileInterface { mediaFileService }

    /// The device the kit works with; with none (or a disconnected one), every call fails with
    /// `TSErrorEnum.notConnected` (2003). Setting it restarts list observation for the new device.
    ///
    /// The device must be a media channel of the control link (`MediaFileTransferChannel`, as the
    /// SMP plugin's devices are); with another, every call fails with `notConnected`.
    public var device: (any DeviceConvertible)? {
        get { state.device.withLock { $0 } }
        set {
            state.device.withLock { $0 = newValue }
            bind(newValue as? any MediaFileTransferChannel)
        }
    }

    /// The log service that `TSLog` and the kit write to; discards everything by default.
    public var logService: any LogService {
        get { state.logService.withLock { $0 } }
        set { state.logService.withLock { $0 = newValue } }
    }

    /// Creates a kit; apps use `sharedInstance`.
    init() {
        let state = self.state
        mediaFileService = TSMediaFileService(
            channelSource: { state.channel.withLock { $0 } },
            logService: { state.logService.withLock { $0 } }
        )
    }

    deinit { mediaFileService.observer.stop() }

    /// Binds the kit to a device's media channel (nil unbinds) and restarts list observation.
    func bind(_ channel: (any MediaFileTransferChannel)?) {
        state.channel.withLock { $0 = channel.map(TSMediaChannel.init) }
        mediaFileService.observer.restart()
    }
}

/// The kit's mutable state, shared with the features it hands out.
final class KitState: Sendable {
    /// The channel to the bound device, if any.
    let channel = Locked<TSMediaChannel?>(nil)
    /// The bound device, if any.
    let device = Locked<(any DeviceConvertible)?>(nil)
    /// Where the kit logs.
    let logService = Locked<any LogService>(NullLogService())
}
