/// What the device is doing right now.
public enum WorkState: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    /// Raw value 0, which the vendor reserves with no meaning.
    case reserved = 0
    /// Starting up.
    case initializing = 1
    /// Waiting for a Bluetooth or BLE connection.
    case btOrBleWaitingForConnection = 2
    // docs: the vendor's work states; each case's name says what the device is doing
    case btOrBleConnectedIdle = 3
    case btOrBleDisconnectedIdle = 4
    case calling = 5
    case playingLocalMusic = 6
    /// In an AI conversation.
    case aiConversing = 7
    case restoringFactorySettings = 8
    case takingPhoto = 9
    /// Taking a photo for an AI request.
    case aiTakingPhoto = 10
    case recordingVideo = 11
    case recordingAudio = 12
    case fileTransferring = 13
    case streaming = 14
    /// Updating firmware.
    case ota = 15
    case shuttingDown = 16
    case factoryTesting = 17
    case ledTesting = 18
    case buttonTesting = 19
    case echoTesting = 20

    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: WorkState { .unknown }
}
