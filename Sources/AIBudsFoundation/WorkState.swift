/// What the device is doing right now.
public enum WorkState: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Not known.
    case unknown = -1
    /// Reserved.
    case reserved = 0
    /// Starting up.
    case initializing = 1
    /// Waiting for a Bluetooth or BLE connection.
    case btOrBleWaitingForConnection = 2
    /// Connected and idle.
    case btOrBleConnectedIdle = 3
    /// Disconnected and idle.
    case btOrBleDisconnectedIdle = 4
    /// In a call.
    case calling = 5
    /// Playing local music.
    case playingLocalMusic = 6
    /// In an AI conversation.
    case aiConversing = 7
    /// Restoring factory settings.
    case restoringFactorySettings = 8
    /// Taking a photo.
    case takingPhoto = 9
    /// Taking a photo for an AI request.
    case aiTakingPhoto = 10
    /// Recording video.
    case recordingVideo = 11
    /// Recording audio.
    case recordingAudio = 12
    /// Transferring files.
    case fileTransferring = 13
    /// Streaming.
    case streaming = 14
    /// Updating firmware.
    case ota = 15
    /// Shutting down.
    case shuttingDown = 16
    /// Factory testing.
    case factoryTesting = 17
    /// LED testing.
    case ledTesting = 18
    /// Button testing.
    case buttonTesting = 19
    /// Echo testing.
    case echoTesting = 20

    /// ``unknown``.
    public static var unknownCase: WorkState { .unknown }
}
